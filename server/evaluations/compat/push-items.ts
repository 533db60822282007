import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Database, Executor } from "@/server/db";
import { evaluationResults, evaluationRuns } from "@/server/db/schema";
import { storedTraceId } from "@/server/tracing";
import { findTestcases } from "@/server/versioning";
import { ClosedRunError } from "../model/closed-run-error";
import { readRunData } from "../model/run-data";
import type { EvaluationRunRow } from "../model/rows";
import { notifyEvaluationWorkers } from "../execution/channel";
import { isTestcasesStep, isTracesStep, traceItems, type SourceItem } from "../execution/source-items";
import { mintScenarios } from "../execution/start-run";
import { getSimpleQueue } from "./simple-queues";

export interface PushResult {
  /** Scenarios minted: one per id not already in the queue. */
  added: number;
  /** Ids the queue already had (a push is idempotent). */
  skipped: number;
}

const MESSAGES = {
  traces: "Cannot add traces directly to a source-backed queue. Create a direct traces queue instead.",
  testcases: "Cannot add testcases directly to a source-backed queue. Create a direct testcases queue instead.",
};

/**
 * Adds rows to a direct queue (reference §4.8): one scenario per trace or testcase, with its
 * cells (people's wait as `pending`, automatic evaluators run), and the run running again.
 * Unlike the reference implementation, pushing an id twice adds it once, an unknown id is a 400
 * naming it, and a missing queue is a 404.
 */
export async function pushQueueItems(
  db: Database,
  projectId: string,
  queueId: string,
  kind: "traces" | "testcases",
  ids: string[],
): Promise<PushResult> {
  const found = await getSimpleQueue(db, projectId, queueId);
  if (!found) throw new NotFoundError(`simple queue ${queueId} does not exist in this project`);
  const steps = readRunData(found.run.data).steps.filter((s) => s.type === "input");
  if (steps.some((s) => !isTracesStep(s) && !isTestcasesStep(s)))
    throw new BadRequestError(MESSAGES[kind], "source_backed_queue").structured();
  const takes = steps.some(isTracesStep) ? "traces" : "testcases";
  if (takes !== kind)
    throw new BadRequestError(
      `queue ${queueId} takes ${takes}, not ${kind}: push to /api/simple/queues/${queueId}/${takes}/`,
      "wrong_queue_kind",
    );
  return db.transaction(async (tx) => {
    // One push at a time per run, so two pushes of the same id cannot both mint it.
    const [run] = await tx.select().from(evaluationRuns).where(eq(evaluationRuns.id, found.run.id)).for("update");
    if (run.flags.is_closed) throw new ClosedRunError(run.id);
    const wanted =
      kind === "traces"
        ? [...new Set(ids.map((id) => storedTraceId(id).replaceAll("-", "")))]
        : [...new Set(ids.map((id) => id.toLowerCase()))];
    const known = await knownIds(tx, run.id, kind, wanted);
    const fresh = wanted.filter((id) => !known.has(id));
    const items =
      kind === "traces" ? await traceItems(tx, projectId, fresh) : await testcaseItems(tx, projectId, fresh);
    const now = new Date();
    const added = await mintScenarios(tx, run, items, now);
    if (added > 0) await reopen(tx, run, now);
    return { added, skipped: wanted.length - fresh.length };
  });
}

async function knownIds(
  tx: Executor,
  runId: string,
  kind: "traces" | "testcases",
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = evaluationResults;
  const column = kind === "traces" ? r.traceId : r.testcaseId;
  const rows = await tx
    .selectDistinct({ id: column })
    .from(r)
    .where(and(eq(r.runId, runId), isNotNull(column), inArray(column, ids)));
  return new Set(rows.map((row) => String(row.id)));
}

async function testcaseItems(tx: Executor, projectId: string, ids: string[]): Promise<SourceItem[]> {
  if (ids.length === 0) return [];
  const rows = await findTestcases(tx, projectId, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length)
    throw new BadRequestError(`no testcase ${missing.slice(0, 5).join(", ")} in this project`, "unknown_testcase");
  return ids.map((id) => ({ testcaseId: id, inputs: (byId.get(id)!.data ?? {}) as Record<string, unknown> }));
}

/** New rows make the run running and active again (it may have finished with the previous ones). */
async function reopen(tx: Executor, run: EvaluationRunRow, now: Date): Promise<void> {
  await tx
    .update(evaluationRuns)
    .set({ status: "running", flags: { ...run.flags, is_active: true }, updatedAt: now })
    .where(eq(evaluationRuns.id, run.id));
  await notifyEvaluationWorkers(tx);
}
