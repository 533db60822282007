import { createHash } from "node:crypto";
import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";

/**
 * The `sandbox.extras` a `daytona_sandbox` passes on to Daytona when it creates a session's
 * sandbox: what it is made from and how big it is. What the service itself decides is refused
 * with the reason, so no extra silently loses to it.
 */
const extrasSchema = z
  .object({
    snapshot: z.string().min(1).optional(),
    image: z.string().min(1).optional(),
    resources: z
      .object({
        cpu: z.number().positive(),
        memory: z.number().positive(),
        disk: z.number().positive(),
        gpu: z.number().int().min(0),
      })
      .partial()
      .strict()
      .optional(),
    user: z.string().min(1).optional(),
    language: z.enum(["python", "typescript", "javascript"]).optional(),
    labels: z.record(z.string(), z.string()).optional(),
    autoArchiveInterval: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((extras) => !(extras.snapshot && extras.image), { message: "set snapshot or image, not both" })
  .refine((extras) => !extras.resources || extras.image, {
    message: "resources apply to a sandbox made from an image; a snapshot fixes its own",
  });

export type DaytonaExtras = z.infer<typeof extrasSchema>;

/** Keys the service sets itself, and why. */
const MANAGED: Record<string, string> = {
  networkBlockAll: "the network comes from sandbox.permissions.network",
  networkAllowList: "the network comes from sandbox.permissions.network",
  domainAllowList: "the network comes from sandbox.permissions.network",
  outboundProxyUrl: "the network comes from sandbox.permissions.network",
  envVars:
    "the service puts no environment variables in the sandbox (a code tool's secrets reach only its own command)",
  secrets: "the service puts no secrets in the sandbox (a code tool's secrets reach only its own command)",
  name: "the service names each session's sandbox",
  autoStopInterval: "DAYTONA_IDLE_STOP_MINUTES decides when an idle sandbox stops",
  autoDeleteInterval: "SANDBOX_WORKSPACE_IDLE_MS decides when an idle sandbox is deleted",
  ephemeral: "SANDBOX_WORKSPACE_IDLE_MS decides when an idle sandbox is deleted",
  ttlMinutes: "SANDBOX_WORKSPACE_IDLE_MS decides when an idle sandbox is deleted",
  public: "a session's sandbox takes no inbound traffic",
  volumes: "a session's files live in its own sandbox",
};

/** The checked extras, or a 400 naming the key and what to do instead. */
export function daytonaExtras(extras: Record<string, unknown>): DaytonaExtras {
  for (const key of Object.keys(extras)) {
    if (MANAGED[key])
      throw new BadRequestError(
        `sandbox.extras.${key} is not passed to Daytona: ${MANAGED[key]}`,
        "invalid_sandbox_extras",
      );
  }
  const parsed = extrasSchema.safeParse(extras);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join(".");
    const accepted = Object.keys(extrasSchema.shape).join(", ");
    throw new BadRequestError(
      `sandbox.extras${where ? `.${where}` : ""}: ${issue.message}; a daytona_sandbox accepts ${accepted}`,
      "invalid_sandbox_extras",
    );
  }
  return parsed.data;
}

/** Identifies the creation settings a sandbox was made with (kept on it as a label). */
export function extrasFingerprint(extras: DaytonaExtras): string {
  return createHash("sha256").update(canonical(extras)).digest("hex").slice(0, 16);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
