import { and, eq, inArray, isNull } from "drizzle-orm";
import { BadRequestError, ConflictError, isAppError, NotFoundError } from "@/server/core/errors";
import type { Database, Executor } from "@/server/db";
import { evaluationQueues, evaluationResults, evaluationRuns } from "@/server/db/schema";
import { scoreOf } from "../compare/compare-runs";
import { recordResults } from "../execution/record-results";
import { lookupRevision } from "../execution/step-targets";
import { readRunData, type Step } from "../model/run-data";
import type { QueueRow, EvaluationRunRow } from "../model/rows";
import { queueScenarios } from "./queue-scenarios";

/** How a person scores a step: 1 to 5, or pass / fail when its evaluator only outputs `success`. */
export type ReviewScale = "score" | "pass_fail";

export interface ReviewStep {
  key: string;
  name: string;
  scale: ReviewScale;
}

export interface Annotation {
  score?: number;
  success?: boolean;
  comment?: string;
}

export interface ReviewItem {
  scenarioId: string;
  status: string;
  inputs: unknown;
  output?: unknown;
  outputStatus?: string;
  traceId?: string;
  /** What the automatic evaluators said, by evaluator. */
  scores: { name: string; score?: number }[];
  /** The person's annotation so far, by human step key. */
  annotations: Record<string, Annotation & { by?: string }>;
}

const queueData = (queue: QueueRow) => (queue.data ?? {}) as { user_ids?: string[][]; step_keys?: string[] };

/** A queue that assigns no one (a default queue) is open to every member; otherwise to its lanes' people. */
const openTo = (queue: QueueRow, userId: string) => {
  const lanes = queueData(queue).user_ids ?? [];
  return lanes.length === 0 || lanes.some((lane) => lane.includes(userId));
};

const stepName = (step: Step) => step.references.evaluator?.slug ?? step.key;

/** What a queue's rows run through before people see them: an agent's or a prompt's revision. */
export interface ReviewedRevision {
  id?: string;
  name: string;
  version?: string;
}

/**
 * The revision whose outputs the queue shows, from its invocation step; none when people review
 * the rows as they are (inputs only). A draft names itself and has no id.
 */
function reviewedRevision(run: EvaluationRunRow): ReviewedRevision | undefined {
  const step = readRunData(run.data).steps.find((s) => s.type === "invocation");
  if (!step) return undefined;
  const r = step.references;
  const artifact = r.application ?? r.workflow;
  const revision = r.application_revision ?? r.workflow_revision;
  return {
    id: revision?.id ?? undefined,
    name: artifact?.slug ?? revision?.slug ?? step.key,
    version: revision?.version ?? undefined,
  };
}

/** An output still on its way: the invocation cell is waiting for a worker or running. */
const outputPending = (status: string | undefined) => status === "queued" || status === "running";

async function loadQueue(db: Executor, projectId: string, userId: string, queueId: string) {
  const [queue] = await db
    .select()
    .from(evaluationQueues)
    .where(
      and(
        eq(evaluationQueues.projectId, projectId),
        eq(evaluationQueues.id, queueId),
        isNull(evaluationQueues.deletedAt),
      ),
    );
  if (!queue || !openTo(queue, userId))
    throw new NotFoundError(`queue ${queueId} does not exist or is not assigned to you`);
  const [run] = await db.select().from(evaluationRuns).where(eq(evaluationRuns.id, queue.runId));
  return { queue, run: run as EvaluationRunRow };
}

/** The human steps a queue asks for: its `step_keys`, else every human step of the run. */
function humanSteps(queue: QueueRow, run: EvaluationRunRow): Step[] {
  const keys = queueData(queue).step_keys;
  return readRunData(run.data).steps.filter(
    (s) => s.type === "annotation" && s.origin === "human" && (!keys?.length || keys.includes(s.key)),
  );
}

async function scaleOf(db: Executor, projectId: string, step: Step): Promise<ReviewScale> {
  const id = step.references.evaluator_revision?.id;
  if (!id) return "score";
  // A revision gone since the step was written reads as a score; a database failure is not an answer.
  const { revision } = await lookupRevision(db, projectId, ["evaluators"], id, "evaluator revision").catch(
    (error: unknown) => {
      if (isAppError(error) && error.status < 500) return { revision: undefined };
      throw error;
    },
  );
  const properties = (revision?.data as { schemas?: { outputs?: { properties?: Record<string, unknown> } } })?.schemas
    ?.outputs?.properties;
  return properties && "success" in properties && !("score" in properties) ? "pass_fail" : "score";
}

/** Queues the person may work in, with their share's progress (scenarios done of all). */
export async function reviewQueuesFor(db: Executor, scope: { projectId: string; userId: string }) {
  const queues = await db
    .select()
    .from(evaluationQueues)
    .where(and(eq(evaluationQueues.projectId, scope.projectId), isNull(evaluationQueues.deletedAt)))
    .limit(500);
  const mine = queues.filter((q) => openTo(q, scope.userId)).sort((a, b) => (a.id < b.id ? 1 : -1));
  const runs = mine.length
    ? await db
        .select()
        .from(evaluationRuns)
        .where(
          inArray(
            evaluationRuns.id,
            mine.map((q) => q.runId),
          ),
        )
    : [];
  const out = [];
  for (const queue of mine) {
    const run = runs.find((r) => r.id === queue.runId)!;
    const steps = humanSteps(queue, run);
    const share = (await queueScenarios(db, scope.projectId, queue.id, { users: [scope.userId], statuses: [] }))!.items;
    const done = share.length
      ? await annotatedScenarios(
          db,
          run.id,
          share.map((s) => s.id),
          steps,
        )
      : new Set();
    out.push({
      id: queue.id,
      name: queue.name ?? run.name,
      runId: run.id,
      runName: run.name,
      runStatus: run.status,
      revision: reviewedRevision(run),
      createdAt: queue.createdAt,
      total: share.length,
      done: done.size,
    });
  }
  return out;
}

/** Scenarios whose every human cell (of the asked steps) holds a person's answer. */
async function annotatedScenarios(db: Executor, runId: string, scenarioIds: string[], steps: Step[]) {
  if (steps.length === 0) return new Set<string>();
  const cells = await db
    .select({ scenarioId: evaluationResults.scenarioId, status: evaluationResults.status })
    .from(evaluationResults)
    .where(
      and(
        eq(evaluationResults.runId, runId),
        inArray(evaluationResults.scenarioId, scenarioIds),
        inArray(
          evaluationResults.stepKey,
          steps.map((s) => s.key),
        ),
      ),
    );
  const open = new Set(cells.filter((c) => c.status !== "success").map((c) => c.scenarioId));
  return new Set(cells.map((c) => c.scenarioId).filter((id) => !open.has(id)));
}

/**
 * A person's share of a queue, oldest first, with what they need to judge each scenario: its
 * inputs, the application's output (first repeat), the automatic evaluators' scores, and their
 * own annotations so far.
 */
export async function reviewItems(db: Executor, scope: { projectId: string; userId: string }, queueId: string) {
  const { queue, run } = await loadQueue(db, scope.projectId, scope.userId, queueId);
  const data = readRunData(run.data);
  const human = humanSteps(queue, run);
  const steps: ReviewStep[] = [];
  for (const step of human)
    steps.push({ key: step.key, name: stepName(step), scale: await scaleOf(db, scope.projectId, step) });
  const share = (await queueScenarios(db, scope.projectId, queue.id, { users: [scope.userId], statuses: [] }))!.items;
  const invocation = data.steps.find((s) => s.type === "invocation");
  // Without a revision to run, a row taken from a trace shows what that trace answered (its input cell carries it).
  const inputKeys = new Set(data.steps.filter((s) => s.type === "input").map((s) => s.key));
  const answered = (c: typeof evaluationResults.$inferSelect) =>
    invocation ? c.stepKey === invocation.key : inputKeys.has(c.stepKey) && c.traceId !== null;
  const automatic = data.steps.filter((s) => s.type === "annotation" && s.origin !== "human");
  const cells = share.length
    ? await db
        .select()
        .from(evaluationResults)
        .where(
          and(
            eq(evaluationResults.runId, run.id),
            inArray(
              evaluationResults.scenarioId,
              share.map((s) => s.id),
            ),
            eq(evaluationResults.repeatIdx, 0),
          ),
        )
    : [];
  const items: ReviewItem[] = share.map((scenario) => {
    const own = cells.filter((c) => c.scenarioId === scenario.id);
    const out = own.find(answered);
    const annotations: ReviewItem["annotations"] = {};
    for (const step of human) {
      const cell = own.find((c) => c.stepKey === step.key && c.status === "success");
      if (!cell) continue;
      const o = (cell.outputs ?? {}) as Annotation;
      annotations[step.key] = {
        score: typeof o.score === "number" ? o.score : undefined,
        success: typeof o.success === "boolean" ? o.success : undefined,
        comment: typeof o.comment === "string" ? o.comment : undefined,
        by: typeof cell.meta?.annotated_by === "string" ? cell.meta.annotated_by : undefined,
      };
    }
    return {
      scenarioId: scenario.id,
      status: scenario.status,
      inputs: scenario.inputs,
      output: out?.outputs ?? undefined,
      outputStatus: out?.status,
      traceId: out?.traceId ?? undefined,
      scores: automatic.map((s) => ({
        name: stepName(s),
        score: scoreOf(own.find((c) => c.stepKey === s.key && c.status === "success")?.outputs),
      })),
      annotations,
    };
  });
  return {
    queue: {
      id: queue.id,
      name: queue.name ?? run.name,
      runId: run.id,
      runName: run.name,
      runStatus: run.status,
      revision: reviewedRevision(run),
    },
    steps,
    items,
  };
}

/**
 * Records a person's annotation of one scenario for one human step: every repeat's cell of that
 * step gets it (status `success`, who annotated in `meta`), then the scenario settles and the run
 * may finish, as when a worker writes cells. The scenario must be in the person's share.
 */
export async function annotateScenario(
  db: Database,
  scope: { projectId: string; userId: string },
  input: { queueId: string; scenarioId: string; stepKey: string } & Annotation,
) {
  const { queue, run } = await loadQueue(db, scope.projectId, scope.userId, input.queueId);
  const step = humanSteps(queue, run).find((s) => s.key === input.stepKey);
  if (!step) throw new BadRequestError(`stepKey: ${input.stepKey} is not a human step of this queue`, "unknown_step");
  const share = (await queueScenarios(db, scope.projectId, queue.id, { users: [scope.userId], statuses: [] }))!.items;
  const scenario = share.find((s) => s.id === input.scenarioId);
  if (!scenario)
    throw new BadRequestError(
      `scenarioId: scenario ${input.scenarioId} is not in your share of this queue`,
      "not_assigned",
    );
  if (input.score === undefined && input.success === undefined)
    throw new BadRequestError("give a score or a pass / fail verdict", "missing_annotation");
  await refuseBeforeOutput(db, run, input.scenarioId);
  const outputs: Annotation = {
    ...(input.score !== undefined ? { score: input.score } : {}),
    ...(input.success !== undefined ? { success: input.success } : {}),
    ...(input.comment?.trim() ? { comment: input.comment.trim() } : {}),
  };
  const repeats = Array.from({ length: readRunData(run.data).repeats }, (_, i) => i);
  await recordResults(
    db,
    scope.projectId,
    repeats.map((repeat) => ({
      run_id: run.id,
      scenario_id: input.scenarioId,
      step_key: step.key,
      repeat_idx: repeat,
      testcase_id: scenario.testcaseId,
      status: "success",
      meta: { annotated_by: scope.userId },
      data: { outputs },
    })),
  );
  return outputs;
}

/**
 * A queue that runs a revision asks people to judge its output: a verdict given while the output
 * is still on its way would judge nothing. A failed invocation is an output too (people may judge
 * the failure), so only a queued or running one is refused.
 */
async function refuseBeforeOutput(db: Executor, run: EvaluationRunRow, scenarioId: string) {
  const invocation = readRunData(run.data).steps.find((s) => s.type === "invocation");
  if (!invocation) return;
  const [cell] = await db
    .select({ status: evaluationResults.status })
    .from(evaluationResults)
    .where(
      and(
        eq(evaluationResults.runId, run.id),
        eq(evaluationResults.scenarioId, scenarioId),
        eq(evaluationResults.stepKey, invocation.key),
        eq(evaluationResults.repeatIdx, 0),
      ),
    );
  if (outputPending(cell?.status))
    throw new ConflictError(
      `scenarioId: ${reviewedRevision(run)?.name ?? "the revision"} has not answered scenario ${scenarioId} yet; review it once its output is there`,
      "output_not_ready",
    );
}
