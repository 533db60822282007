import { and, eq, inArray, notExists, sql } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { refreshMetrics } from "../metrics/refresh-metrics";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";

/**
 * An edit that drops steps deletes their cells, then the scenarios left with no cell, then
 * refreshes the metrics of the scenarios that remain (reference §2.5). Create never prunes.
 */
export async function pruneRemovedSteps(
  tx: Executor,
  before: EvaluationRunRow,
  after: EvaluationRunRow,
): Promise<void> {
  const kept = new Set(readRunData(after.data).steps.map((s) => s.key));
  const removed = readRunData(before.data)
    .steps.map((s) => s.key)
    .filter((k) => !kept.has(k));
  if (removed.length === 0) return;
  const r = evaluationResults;
  const touched = await tx
    .delete(r)
    .where(and(eq(r.runId, after.id), inArray(r.stepKey, removed)))
    .returning({ scenarioId: r.scenarioId });
  const scenarioIds = [...new Set(touched.map((t) => t.scenarioId))];
  if (scenarioIds.length === 0) return;
  const s = evaluationScenarios;
  await tx.delete(s).where(
    and(
      inArray(s.id, scenarioIds),
      notExists(
        tx
          .select({ one: sql`1` })
          .from(r)
          .where(eq(r.scenarioId, s.id)),
      ),
    ),
  );
  const remaining = await tx.select({ id: s.id }).from(s).where(inArray(s.id, scenarioIds));
  for (const { id } of remaining) await refreshMetrics(tx, after, id);
}
