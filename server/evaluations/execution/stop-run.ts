import { and, eq } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { evaluationRuns } from "@/server/db/schema";
import type { EvaluationRunRow } from "../model/rows";
import { notifyEvaluationWorkers } from "./channel";

/**
 * Stops a run: no further cell is claimed, and the workers abort the cells they are running
 * (their leases are released; a later start resumes them). A run that was still running is
 * marked `cancelled`, so a stopped run does not read as one in progress (a live run excepted).
 */
export async function stopRun(db: Database, projectId: string, runId: string): Promise<EvaluationRunRow> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(evaluationRuns)
      .where(and(eq(evaluationRuns.projectId, projectId), eq(evaluationRuns.id, runId)))
      .for("update");
    if (!run) throw new NotFoundError(`evaluation run ${runId} does not exist in this project`);
    const [stopped] = await tx
      .update(evaluationRuns)
      .set({
        flags: { ...run.flags, is_active: false },
        // A live run stays `running`, as in the reference implementation: stopped only means no
        // more ticks.
        status: run.status === "running" && !run.flags.is_live ? "cancelled" : run.status,
        updatedAt: new Date(),
      })
      .where(eq(evaluationRuns.id, run.id))
      .returning();
    await notifyEvaluationWorkers(tx, "stopped");
    return stopped;
  });
}
