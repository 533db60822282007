import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "@/server/db";
import { evaluationQueues, evaluationRuns } from "@/server/db/schema";
import type { Scope } from "@/server/versioning";
import { startRun } from "../execution/start-run";
import { validateGraph } from "../execution/validate-graph";
import type { QueueRow, EvaluationRunRow } from "../model/rows";
import { buildSteps } from "./build-steps";
import type { Windowing } from "@/server/core/windowing";
import { deleteRuns, insertEvaluationRun } from "../store/run-store";
import { reconcileDefaultQueue } from "../queues/default-queue";
import { createQueues, deleteQueues, queryQueues } from "../queues/queue-store";
import { planQueue, type QueueKind, type SimpleQueueInput } from "./input";
import { checkQueueApplication } from "./queue-application";
import { simpleQueueToWire } from "./wire";

export type SimpleQueue = ReturnType<typeof simpleQueueToWire>;

/**
 * Creates a queue-mode run (reference §8.3): its rows from saved queries or testsets (minted at
 * once) or pushed later by id (traces, testcases), the application revision each row runs through
 * first when one is given (an invocation step: the engine runs it, people review its output), its
 * evaluators (people's cells wait as `pending`, automatic ones run), and the queue people work
 * from: the run's default queue when nothing narrows it, else a queue with the assignments, step
 * keys and batch settings.
 */
export async function createSimpleQueue(db: Database, scope: Scope, input: SimpleQueueInput): Promise<SimpleQueue> {
  const plan = planQueue(input);
  const d = input.data;
  const direct = plan.kind === "traces" || plan.kind === "testcases" ? plan.kind : undefined;
  if (d.application) await checkQueueApplication(db, scope.projectId, d.application);
  const steps = await buildSteps(
    db,
    scope.projectId,
    {
      data: {
        query_steps: d.queries,
        testset_steps: d.testsets,
        application_steps: d.application ? [d.application] : undefined,
        evaluator_steps: plan.evaluators,
      },
    },
    direct,
  );
  const data = { steps, repeats: plan.repeats };
  await validateGraph(db, scope.projectId, data);
  const scoped = Boolean(d.assignments?.length || d.step_keys?.length || d.settings);
  const { run, queue } = await db.transaction(async (tx) => {
    const run = await reconcileDefaultQueue(
      tx,
      await insertEvaluationRun(tx, scope, {
        name: input.name,
        description: input.description,
        tags: input.tags,
        meta: input.meta,
        data,
      }),
    );
    const queue = scoped
      ? (
          await createQueues(tx, scope, [
            {
              run_id: run.id,
              name: input.name,
              description: input.description,
              status: "running",
              tags: input.tags,
              meta: input.meta,
              flags: { is_default: false, is_sequential: Boolean(d.settings) },
              data: {
                user_ids: d.assignments,
                step_keys: d.step_keys,
                batch_size: d.settings?.batch_size,
                batch_offset: d.settings?.batch_offset,
              },
            },
          ])
        )[0]
      : await defaultQueueOf(tx, run.id);
    return { run, queue: queue! };
  });
  try {
    return simpleQueueToWire(queue, await startRun(db, scope, run.id));
  } catch (error) {
    // A source that cannot be read (an empty testset, a query over too many traces) leaves nothing behind.
    await deleteRuns(db, scope.projectId, [run.id]);
    throw error;
  }
}

async function defaultQueueOf(db: Executor, runId: string): Promise<QueueRow | undefined> {
  const [queue] = await db
    .select()
    .from(evaluationQueues)
    .where(and(eq(evaluationQueues.runId, runId), sql`(${evaluationQueues.flags} ->> 'is_default')::boolean`));
  return queue;
}

/** A simple queue by id: an active queue of a queue-mode run of the project. */
export async function getSimpleQueue(
  db: Database,
  projectId: string,
  id: string,
): Promise<{ queue: QueueRow; run: EvaluationRunRow } | undefined> {
  const [row] = await db
    .select({ queue: evaluationQueues, run: evaluationRuns })
    .from(evaluationQueues)
    .innerJoin(evaluationRuns, eq(evaluationRuns.id, evaluationQueues.runId))
    .where(
      and(
        eq(evaluationQueues.projectId, projectId),
        eq(evaluationQueues.id, id),
        sql`${evaluationQueues.deletedAt} is null`,
        sql`${evaluationRuns.flags} @> '{"is_queue": true}'`,
      ),
    );
  return row;
}

export interface SimpleQueueFilter {
  kind?: QueueKind | null;
  queue_ids?: string[] | null;
  run_id?: string | null;
  run_ids?: string[] | null;
  user_id?: string | null;
  user_ids?: string[] | null;
  name?: string | null;
  description?: string | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

const KIND_FLAG: Record<QueueKind, string> = {
  queries: "has_queries",
  testsets: "has_testsets",
  traces: "has_traces",
  testcases: "has_testcases",
};

/** Queues of queue-mode runs (`is_queue`), newest first, by kind, runs, assigned users, name, tags, meta. */
export async function querySimpleQueues(
  db: Database,
  projectId: string,
  filter: SimpleQueueFilter,
  windowing?: Windowing | null,
): Promise<{ items: SimpleQueue[]; next?: string }> {
  const runs = await db
    .select()
    .from(evaluationRuns)
    .where(
      and(
        eq(evaluationRuns.projectId, projectId),
        sql`${evaluationRuns.flags} @> ${JSON.stringify({ is_queue: true, ...(filter.kind ? { [KIND_FLAG[filter.kind]]: true } : {}) })}::jsonb`,
        filter.run_id || filter.run_ids
          ? inArray(evaluationRuns.id, [...(filter.run_ids ?? []), ...(filter.run_id ? [filter.run_id] : [])])
          : undefined,
      ),
    );
  const byId = new Map(runs.map((r) => [r.id, r]));
  const page = await queryQueues(
    db,
    projectId,
    {
      ids: filter.queue_ids,
      run_ids: runs.map((r) => r.id),
      user_id: filter.user_id,
      user_ids: filter.user_ids,
      name: filter.name,
      description: filter.description,
      tags: filter.tags,
      meta: filter.meta,
    },
    windowing,
  );
  return { items: page.items.map((q) => simpleQueueToWire(q, byId.get(q.runId)!)), next: page.next };
}

/** Deletes simple queues: a run's default queue goes with its whole run (reference §8.3), another alone. */
export async function deleteSimpleQueues(db: Database, projectId: string, ids: string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const id of new Set(ids)) {
    const found = await getSimpleQueue(db, projectId, id);
    if (!found) continue;
    if (found.queue.flags.is_default) await deleteRuns(db, projectId, [found.run.id]);
    else await deleteQueues(db, projectId, [id]);
    deleted.push(id);
  }
  return deleted;
}
