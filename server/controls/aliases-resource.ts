import { z } from "zod";
import { PROVIDER_IDS } from "@/server/agent-template";
import { BadRequestError } from "@/server/core/errors";
import { modelAliases } from "@/server/db/schema";
import { secretHeaders } from "@/server/vault";
import type { ControlResource } from "./control-resource";
import type { AliasRow } from "./control-rows";

const aliasEntry = z.strictObject({
  provider: z
    .enum(["custom", ...PROVIDER_IDS] as [string, ...string[]])
    .describe("A provider id, or `custom` for a stored custom provider named by `connection`"),
  model: z.string().trim().min(1, "write the model's id").max(200),
  weight: z
    .number()
    .positive()
    .max(1_000_000)
    .optional()
    .describe("Traffic share of the first attempt among weighted entries"),
  connection: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("A stored connection's slug; absent: the project's connection for the provider"),
});

export const aliasInput = z.strictObject({
  name: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]{0,99}$/,
      "lowercase letters, digits, '.', '_' and '-', no '/' (a template names it as llm.model)",
    ),
  entries: z
    .array(aliasEntry)
    .min(1, "add at least one entry")
    .max(10, "at most 10 entries")
    .describe("Tried in order on 429, 5xx, a timeout or a refused connection"),
  attempt_timeout_ms: z.number().int().min(100).max(600_000).default(15_000),
});
export type AliasInput = z.infer<typeof aliasInput>;

export const aliasWire = z.object({
  id: z.string().uuid(),
  name: z.string(),
  entries: z.array(
    z.object({
      provider: z.string(),
      model: z.string(),
      weight: z.number().optional(),
      connection: z.string().optional(),
    }),
  ),
  attempt_timeout_ms: z.number().int(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type AliasWire = z.infer<typeof aliasWire>;

/** Model aliases with fallbacks (`/api/controls/aliases/`); a template with `llm.model` = the name runs them. */
export const aliasesResource: ControlResource<AliasInput, AliasRow, AliasWire> = {
  path: "aliases",
  entity: "alias",
  notFoundCode: "alias_not_found",
  entities: "aliases",
  label: "model alias",
  table: modelAliases,
  input: aliasInput,
  wire: aliasWire,
  async values(app, projectId, input) {
    await checkConnections(app.db, projectId, input.entries);
    return { name: input.name, entries: input.entries, attemptTimeoutMs: input.attempt_timeout_ms };
  },
  async toWire(_app, rows) {
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      entries: row.entries,
      attempt_timeout_ms: row.attemptTimeoutMs,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    }));
  },
  conflict: (input) => `The project already has a model alias named "${input.name}"`,
};

/**
 * Every entry's `connection` must name a model connection of the project whose provider is the
 * entry's (`custom` for a custom provider), so an alias never stores a fallback that can only
 * fail when a run reaches it.
 */
async function checkConnections(
  db: Parameters<typeof secretHeaders>[0],
  projectId: string,
  entries: AliasInput["entries"],
): Promise<void> {
  const slugs = [...new Set(entries.flatMap((entry) => (entry.connection ? [entry.connection] : [])))];
  const headers = new Map((await secretHeaders(db, projectId, slugs)).map((header) => [header.slug, header]));
  entries.forEach((entry, i) => {
    const where = `Entry ${i + 1} (${entry.provider}/${entry.model})`;
    if (!entry.connection) {
      if (entry.provider === "custom")
        throw new BadRequestError(
          `${where}: a custom provider is reached through its stored connection; name it`,
          "unknown_connection",
        );
      return;
    }
    const header = headers.get(entry.connection);
    if (!header || header.kind === "secret")
      throw new BadRequestError(
        `${where} names "${entry.connection}", which is ${header ? "a plain secret, not a model connection" : "no stored connection of this project"}; add it under Settings → Connections`,
        "unknown_connection",
      );
    if (header.provider !== entry.provider)
      throw new BadRequestError(
        `${where}: the connection "${header.name}" is ${header.provider === "custom" ? "a custom provider" : `a ${header.provider} connection`}, not ${entry.provider}`,
        "connection_mismatch",
      );
  });
}
