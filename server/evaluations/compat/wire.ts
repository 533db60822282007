import { z } from "zod";
import { compact } from "@/server/core/compact";
import { isoTimestampSchema } from "@/server/core/time";
import { readRunData } from "../model/run-data";
import type { RunOutline } from "../store/run-store";
import type { RunProgress } from "./progress";
import type { QueueRow, EvaluationRunRow } from "../model/rows";
import { STATUSES } from "../model/statuses";
import { QUEUE_KINDS, type QueueKind } from "./input";

const REVISION_KEY = {
  input: ["testset_revision", "query_revision"],
  invocation: ["application_revision", "workflow_revision"],
  annotation: ["evaluator_revision"],
} as const;

const stepMapWire = z.record(z.string(), z.string());

export const simpleEvaluationWire = z.strictObject({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
  created_by_id: z.string().optional(),
  flags: z.record(z.string(), z.boolean()),
  tags: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()),
  data: z.strictObject({
    status: z.string(),
    query_steps: stepMapWire,
    testset_steps: stepMapWire,
    application_steps: stepMapWire,
    evaluator_steps: stepMapWire,
    repeats: z.number().int(),
    testcases: z.number().int().optional(),
    traces: z.number().int().optional(),
  }),
  progress: z
    .strictObject({
      cells_total: z.number().int(),
      cells_done: z.number().int(),
      steps: z.record(z.string(), z.record(z.string(), z.number().int())),
    })
    .optional(),
});

/**
 * The reference implementation's simple evaluation shape (step maps `{revision_id: origin}`
 * recovered from the steps), plus `progress` (beyond the reference implementation): cells done /
 * total and per-step counts.
 */
export function simpleEvaluationToWire(run: RunOutline, progress?: RunProgress) {
  const data = readRunData(run.data);
  const maps = {
    query_steps: {} as Record<string, string>,
    testset_steps: {} as Record<string, string>,
    application_steps: {} as Record<string, string>,
    evaluator_steps: {} as Record<string, string>,
  };
  for (const step of data.steps) {
    const key = REVISION_KEY[step.type].find((k) => step.references[k]?.id);
    const id = key ? step.references[key]!.id! : undefined;
    if (!id) continue;
    const target =
      step.type === "input"
        ? key === "query_revision"
          ? maps.query_steps
          : maps.testset_steps
        : step.type === "invocation"
          ? maps.application_steps
          : maps.evaluator_steps;
    target[id] = step.origin;
  }
  return compact({
    id: run.id,
    name: run.name,
    description: run.description,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt?.toISOString(),
    created_by_id: run.createdById,
    flags: run.flags,
    tags: run.tags ?? {},
    meta: run.meta ?? {},
    data: {
      status: run.status,
      ...maps,
      repeats: data.repeats,
      ...(run.inlineTestcases !== null ? { testcases: run.inlineTestcases } : {}),
      ...(run.inlineTraces !== null ? { traces: run.inlineTraces } : {}),
    },
    progress,
  });
}

export const simpleQueueWire = z.strictObject({
  id: z.string(),
  run_id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  status: z.enum(STATUSES),
  flags: z.strictObject({ is_default: z.boolean(), is_sequential: z.boolean() }),
  tags: z.record(z.string(), z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  data: z.strictObject({
    kind: z.enum(QUEUE_KINDS),
    queries: z.array(z.string()).optional(),
    testsets: z.array(z.string()).optional(),
    application: z.string().optional().describe("The agent or prompt revision each row runs through first"),
    evaluators: z.record(z.string(), z.string()),
    repeats: z.number().int(),
    assignments: z.array(z.array(z.string())).optional(),
    step_keys: z.array(z.string()).optional(),
    settings: z
      .strictObject({ batch_size: z.number().int().optional(), batch_offset: z.number().int().optional() })
      .nullable(),
  }),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
});

/** The kind of rows a queue run takes, read from its input steps. */
export function queueKind(run: EvaluationRunRow): QueueKind {
  const f = run.flags;
  return f.has_queries ? "queries" : f.has_testsets ? "testsets" : f.has_traces ? "traces" : "testcases";
}

/** The reference implementation's simple queue: the queue with its run's sources, evaluators and repeats. */
export function simpleQueueToWire(queue: QueueRow, run: EvaluationRunRow) {
  const steps = readRunData(run.data).steps;
  const ids = (ref: string) =>
    steps.map((s) => s.references[ref]?.id).filter((id): id is string => typeof id === "string");
  const kind = queueKind(run);
  const data = (queue.data ?? {}) as {
    user_ids?: string[][];
    step_keys?: string[];
    batch_size?: number | null;
    batch_offset?: number | null;
  };
  const settings =
    data.batch_size != null || data.batch_offset != null
      ? compact({ batch_size: data.batch_size, batch_offset: data.batch_offset })
      : null;
  return compact({
    id: queue.id,
    run_id: queue.runId,
    name: queue.name,
    description: queue.description,
    status: queue.status,
    flags: { is_default: Boolean(queue.flags.is_default), is_sequential: Boolean(queue.flags.is_sequential) },
    tags: queue.tags,
    meta: queue.meta,
    data: {
      kind,
      ...(kind === "queries" ? { queries: ids("query_revision") } : {}),
      ...(kind === "testsets" ? { testsets: ids("testset_revision") } : {}),
      ...compact({ application: [...ids("application_revision"), ...ids("workflow_revision")][0] }),
      evaluators: Object.fromEntries(
        steps
          .filter((s) => s.type === "annotation" && s.references.evaluator_revision?.id)
          .map((s) => [s.references.evaluator_revision!.id!, s.origin]),
      ),
      repeats: readRunData(run.data).repeats,
      ...(data.user_ids ? { assignments: data.user_ids } : {}),
      ...(data.step_keys ? { step_keys: data.step_keys } : {}),
      settings,
    },
    created_at: queue.createdAt.toISOString(),
    updated_at: queue.updatedAt?.toISOString(),
  });
}
