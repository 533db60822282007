import type { Executor } from "@/server/db";
import { emitEvent } from "@/server/events";
import type { EvaluationRunRow } from "../model/rows";

export type RunEventType = "evaluations.runs.started" | "evaluations.runs.finished" | "evaluations.runs.failed";

/** Written in the transaction that changes the run, so the event exists exactly when the change does. */
export async function emitRunEvent(
  tx: Executor,
  type: RunEventType,
  run: EvaluationRunRow,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await emitEvent(tx, {
    projectId: run.projectId,
    type,
    attributes: { run_id: run.id, name: run.name, status: run.status, ...extra },
  });
}
