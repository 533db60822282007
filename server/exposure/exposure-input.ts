import { z } from "zod";

/** What can be exposed: a deployed agent (an MCP tool, an A2A agent) or a prompt application (an MCP prompt). */
export const EXPOSURE_KINDS = ["agent", "prompt"] as const;
export type ExposureKind = (typeof EXPOSURE_KINDS)[number];

/** MCP's recommended tool-name characters, and `@` for the default `<slug>@<environment>`. */
export const EXPOSED_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;

export const exposureEntryInput = z.strictObject({
  kind: z.enum(EXPOSURE_KINDS).describe("`agent`: a deployed agent; `prompt`: a deployed prompt application"),
  slug: z.string().min(1).max(200).describe("The agent's or prompt application's slug"),
  environment: z.string().min(1).max(200).describe("The environment's slug it runs from (its deploy pointer)"),
  name: z
    .string()
    .regex(EXPOSED_NAME, "name: 1 to 64 of A-Z a-z 0-9 _ . @ -")
    .nullish()
    .describe("The owner's name for the tool or prompt; absent: `<slug>@<environment>`"),
});
export type ExposureEntryInput = z.infer<typeof exposureEntryInput>;

/** The whole list, replaced at once: what is not in it is not exposed. */
export const exposureInput = z.strictObject({ exposures: z.array(exposureEntryInput).max(500) });
export type ExposureInput = z.infer<typeof exposureInput>;

export const exposureWire = z.strictObject({
  kind: z.enum(EXPOSURE_KINDS),
  slug: z.string(),
  environment: z.string(),
  name: z.string().describe("The name clients see: the owner's, or `<slug>@<environment>`"),
  custom_name: z.boolean().describe("Whether the owner set the name"),
});
export type ExposureWire = z.infer<typeof exposureWire>;

export const exposedName = (entry: { slug: string; environment: string; name?: string | null }): string =>
  entry.name ?? `${entry.slug}@${entry.environment}`;
