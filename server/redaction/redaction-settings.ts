import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/server/audit";
import { processWide } from "@/server/core/process-wide";
import type { Database, Executor } from "@/server/db";
import { redactionSettings } from "@/server/db/schema";
import { BUILT_IN_KINDS } from "./detectors";
import { compileProjectPattern, Redactor } from "./redactor";

export const redactionSettingsInput = z.strictObject({
  kinds: z.array(z.enum(BUILT_IN_KINDS)).describe("Built-in kinds to redact: email, phone, card, iban, secret"),
  patterns: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-z0-9_-]{1,40}$/, "name is 1 to 40 of a-z 0-9 _ -"),
        pattern: z.string().min(1).max(500).describe("RE2 syntax (linear time: no backreferences or lookaround)"),
      }),
    )
    .max(50),
  model_input: z.boolean().describe("Also redact what is sent to the model"),
});
export type RedactionSettingsInput = z.infer<typeof redactionSettingsInput>;

const NONE: RedactionSettingsInput = { kinds: [], patterns: [], model_input: false };

export async function getRedactionSettings(db: Executor, projectId: string): Promise<RedactionSettingsInput> {
  const [row] = await db.select().from(redactionSettings).where(eq(redactionSettings.projectId, projectId));
  if (!row) return NONE;
  return { kinds: row.kinds as RedactionSettingsInput["kinds"], patterns: row.patterns, model_input: row.modelInput };
}

/** Replaces the project's settings (patterns checked first: an invalid one is a 400, nothing saved); audited. */
export async function setRedactionSettings(
  db: Database,
  projectId: string,
  input: RedactionSettingsInput,
): Promise<RedactionSettingsInput> {
  for (const { name, pattern } of input.patterns) compileProjectPattern(name, pattern);
  await db.transaction(async (tx) => {
    const before = await getRedactionSettings(tx, projectId);
    const values = {
      kinds: input.kinds,
      patterns: input.patterns,
      modelInput: input.model_input,
      updatedAt: new Date(),
    };
    await tx
      .insert(redactionSettings)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: redactionSettings.projectId, set: values });
    await recordAudit(tx, {
      projectId,
      action: "redaction_settings.updated",
      targetType: "redaction_settings",
      targetId: projectId,
      before,
      after: input,
    });
  });
  rulesCache(globalThis).delete(projectId);
  return input;
}

/** How long a process keeps a project's compiled rules; a change elsewhere reaches it within this. */
const RULES_TTL_MS = 5_000;
const rulesCache = processWide(
  "redaction.rules",
  (_: typeof globalThis) => new Map<string, { redactor: Redactor; modelInput: boolean; until: number }>(),
);

/**
 * The project's compiled redactor, for the write paths. Cached per process for RULES_TTL_MS: a
 * write path pays one map lookup, and a settings change made on another process applies there
 * within 5 seconds (the process that made it applies it at once).
 */
export async function redactorFor(
  db: Executor,
  projectId: string,
  now = Date.now(),
): Promise<{ redactor: Redactor; modelInput: boolean }> {
  const cache = rulesCache(globalThis);
  const hit = cache.get(projectId);
  if (hit && hit.until > now) return hit;
  const settings = await getRedactionSettings(db, projectId);
  const entry = {
    redactor: new Redactor({ kinds: settings.kinds, patterns: settings.patterns }),
    modelInput: settings.model_input,
    until: now + RULES_TTL_MS,
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(projectId, entry);
  return entry;
}

/** `value` as the project's rules store it: what the write paths call before storing. */
export async function redactForStorage<T>(db: Executor, projectId: string, value: T): Promise<T> {
  return (await redactorFor(db, projectId)).redactor.value(value);
}
