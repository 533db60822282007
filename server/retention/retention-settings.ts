import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/server/audit";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { retentionSettings } from "@/server/db/schema";

/** A hundred years: anything longer is "forever", said with null. */
export const MAX_RETENTION_DAYS = 36_500;

const days = (what: string) =>
  z
    .number({ error: `${what}: a whole number of days (1 to ${MAX_RETENTION_DAYS}), or null to keep forever` })
    .int(`${what}: a whole number of days`)
    .min(1, `${what}: at least 1 day (null keeps forever)`)
    .max(MAX_RETENTION_DAYS, `${what}: at most ${MAX_RETENTION_DAYS} days (null keeps forever)`)
    .nullable()
    .describe(`Days ${what} are kept; null keeps them forever`);

/** Every kind must be named: a body that forgets one would silently keep (or change) it. */
export const retentionSettingsInput = z.strictObject({
  traces_days: days("traces (spans, by start time)"),
  runs_days: days("runs and their event logs (by start)"),
  chat_sessions_days: days("chat sessions (by last activity)"),
  evaluation_results_days: days("evaluation results (by the evaluation's start)"),
  events_days: days("events (by time)"),
});
export type RetentionSettings = z.infer<typeof retentionSettingsInput>;

/** Today's behaviour: everything is kept (spans still follow the global partition drop). */
export const KEEP_FOREVER: RetentionSettings = {
  traces_days: null,
  runs_days: null,
  chat_sessions_days: null,
  evaluation_results_days: null,
  events_days: null,
};

export async function getRetentionSettings(db: Executor, projectId: string): Promise<RetentionSettings> {
  const [row] = await db.select().from(retentionSettings).where(eq(retentionSettings.projectId, projectId));
  if (!row) return KEEP_FOREVER;
  return {
    traces_days: row.tracesDays,
    runs_days: row.runsDays,
    chat_sessions_days: row.chatSessionsDays,
    evaluation_results_days: row.evaluationResultsDays,
    events_days: row.eventsDays,
  };
}

/**
 * Replaces the project's retention; the change and its audit entry commit together. Spans longer
 * than the server's `TRACING_RETENTION_DAYS` are refused: its partition drop would delete them
 * earlier than the setting says.
 */
export async function setRetentionSettings(
  app: Pick<AppContext, "db" | "config">,
  projectId: string,
  input: RetentionSettings,
): Promise<RetentionSettings> {
  const serverDays = app.config.tracing.retentionDays;
  if (serverDays && (input.traces_days === null || input.traces_days > serverDays)) {
    throw new BadRequestError(
      `traces_days: this server drops spans after ${serverDays} days (TRACING_RETENTION_DAYS); send at most ${serverDays}`,
      "retention_exceeds_server",
    );
  }
  await app.db.transaction(async (tx) => {
    const before = await getRetentionSettings(tx, projectId);
    const values = {
      tracesDays: input.traces_days,
      runsDays: input.runs_days,
      chatSessionsDays: input.chat_sessions_days,
      evaluationResultsDays: input.evaluation_results_days,
      eventsDays: input.events_days,
      updatedAt: new Date(),
    };
    await tx
      .insert(retentionSettings)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: retentionSettings.projectId, set: values });
    await recordAudit(tx, {
      projectId,
      action: "retention_settings.updated",
      targetType: "retention_settings",
      targetId: projectId,
      before,
      after: input,
    });
  });
  return input;
}
