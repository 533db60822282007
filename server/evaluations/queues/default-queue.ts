import { and, eq, sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { evaluationQueues, evaluationRuns } from "@/server/db/schema";
import type { EvaluationRunRow } from "../model/rows";

const q = evaluationQueues;

/**
 * The default queue policy (reference §8.1), run on every create and edit of a run: a run with
 * human evaluator steps has one active default queue (created, or unarchived); a run without has
 * none active (archived). `is_queue` says whether it has one. A run has at most one default queue
 * over its life (a partial unique index).
 */
export async function reconcileDefaultQueue(tx: Executor, run: EvaluationRunRow): Promise<EvaluationRunRow> {
  const [existing] = await tx
    .select()
    .from(q)
    .where(and(eq(q.runId, run.id), sql`(${q.flags} ->> 'is_default')::boolean`));
  const required = Boolean(run.flags.has_human);
  const now = new Date();
  if (required && !existing) {
    await tx.insert(q).values({
      id: newId(),
      projectId: run.projectId,
      runId: run.id,
      name: run.name,
      status: "running",
      flags: { is_default: true, is_sequential: false },
      createdAt: now,
      updatedAt: now,
      createdById: run.createdById,
    });
  } else if (required && existing?.deletedAt) {
    await tx.update(q).set({ deletedAt: null, updatedAt: now }).where(eq(q.id, existing.id));
  } else if (!required && existing && !existing.deletedAt) {
    await tx.update(q).set({ deletedAt: now, updatedAt: now }).where(eq(q.id, existing.id));
  }
  if (Boolean(run.flags.is_queue) === required) return run;
  const [updated] = await tx
    .update(evaluationRuns)
    .set({ flags: { ...run.flags, is_queue: required } })
    .where(eq(evaluationRuns.id, run.id))
    .returning();
  return updated;
}
