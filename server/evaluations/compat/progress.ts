import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { evaluationResults } from "@/server/db/schema";

export interface RunProgress {
  cells_total: number;
  cells_done: number;
  steps: Record<string, Record<string, number>>;
}

/** Cells done out of total, and per step the count of cells in each status: what a run shows while it runs. */
export async function runProgress(db: Executor, runId: string): Promise<RunProgress> {
  const rows = await db
    .select({
      step: evaluationResults.stepKey,
      status: evaluationResults.status,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(evaluationResults)
    .where(eq(evaluationResults.runId, runId))
    .groupBy(evaluationResults.stepKey, evaluationResults.status);
  const progress: RunProgress = { cells_total: 0, cells_done: 0, steps: {} };
  for (const { step, status, n } of rows) {
    progress.cells_total += n;
    if (status === "success" || status === "failure" || status === "errors" || status === "cancelled")
      progress.cells_done += n;
    (progress.steps[step] ??= {})[status] = n;
  }
  return progress;
}
