import { z } from "zod";
import { modelAllowlists } from "@/server/db/schema";
import { checkTarget } from "./control-target";
import type { ControlResource } from "./control-resource";
import type { AllowlistRow } from "./control-rows";

export const allowlistInput = z.strictObject({
  scope: z.enum(["project", "api_key"]),
  target_id: z.string().uuid().nullish().describe("The API key's id; absent for scope project"),
  patterns: z
    .array(
      z.string().trim().min(1).max(200).regex(/\//, "write provider/model (a glob: anthropic/*, openai/gpt-5-mini)"),
    )
    .max(200)
    .describe("Globs over provider/model; `*` stays within a segment, `**` crosses `/`. Empty: no model is allowed"),
});
export type AllowlistInput = z.infer<typeof allowlistInput>;

export const allowlistWire = z.object({
  id: z.string().uuid(),
  scope: z.enum(["project", "api_key"]),
  target_id: z.string().uuid().optional(),
  patterns: z.array(z.string()),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type AllowlistWire = z.infer<typeof allowlistWire>;

/** Model allowlists of the project and of its API keys (`/api/controls/allowlists/`). */
export const allowlistsResource: ControlResource<AllowlistInput, AllowlistRow, AllowlistWire> = {
  path: "allowlists",
  entity: "allowlist",
  notFoundCode: "allowlist_not_found",
  entities: "allowlists",
  label: "model allowlist",
  table: modelAllowlists,
  input: allowlistInput,
  wire: allowlistWire,
  async values(app, projectId, input) {
    await checkTarget(app, projectId, input.scope, input.target_id);
    return { scope: input.scope, targetId: input.target_id ?? null, patterns: [...new Set(input.patterns)] };
  },
  async toWire(_app, rows) {
    return rows.map((row) => ({
      id: row.id,
      scope: row.scope,
      ...(row.targetId ? { target_id: row.targetId } : {}),
      patterns: row.patterns,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    }));
  },
  conflict: (input) =>
    input.scope === "project"
      ? "The project already has a model allowlist; change it with PUT"
      : `API key ${input.target_id} already has a model allowlist; change it with PUT`,
};
