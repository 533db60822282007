import { z } from "zod";
import { concurrencySchema } from "../model/run-data";
import { SchemaValidationError } from "@/server/core/errors";
import { IGNORED_KEYS, requestObject, runFlagsInput } from "../model/request-fields";
import { statusSchema } from "../model/statuses";

const origin = z.enum(["custom", "human", "auto"]);
/** A list of revision ids, or a map `{revision_id: origin}` (reference §3.1). */
export const targetSchema = z.union([z.array(z.string().uuid()), z.record(z.string().uuid(), origin)]);
export type Target = z.output<typeof targetSchema>;

export const simpleEvaluationDataSchema = z.strictObject({
  status: statusSchema
    .nullish()
    .describe(
      'On create, "running" is the reference SDK\'s local loop (the client runs the evaluation, nothing here executes it); otherwise the start sets it. Read-only on edit: start, stop and close change it.',
    ),
  query_steps: targetSchema.nullish(),
  testset_steps: targetSchema.nullish(),
  application_steps: targetSchema.nullish(),
  evaluator_steps: targetSchema.nullish(),
  application_drafts: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(200).describe("What the results call this draft."),
        agent: z.unknown().describe("The agent template, as the editor holds it (committed nowhere)."),
      }),
    )
    .max(10)
    .nullish()
    .describe("Unsaved agent drafts to run as they are, beside (or instead of) application revisions."),
  testcases: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(50_000)
    .nullish()
    .describe("Testcases given inline (each a row of columns), instead of a testset revision."),
  trace_ids: z
    .array(z.string().regex(/^(0x)?[0-9a-fA-F-]{32,36}$/, "a trace id is 32 hex digits or a UUID"))
    .min(1)
    .max(10_000)
    .nullish()
    .describe(
      "Traces given by id: their inputs are the rows (re-invoked with an application, else scored as they are).",
    ),
  repeats: z.number().int().min(1).max(100).nullish(),
  concurrency: concurrencySchema.nullish(),
});

const simpleEvaluationFields = {
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  flags: runFlagsInput.nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  data: simpleEvaluationDataSchema.nullish(),
};
const { echo } = IGNORED_KEYS;
export const simpleEvaluationSchema = requestObject(simpleEvaluationFields, echo, IGNORED_KEYS.createdId);
export type SimpleEvaluationInput = z.output<typeof simpleEvaluationSchema>;

export const simpleEvaluationBody = z.strictObject({ evaluation: simpleEvaluationSchema });

/** An edit may echo the evaluation it read: its id (which must be the path's) and its read-only fields. */
export const simpleEvaluationEditBody = z.strictObject({
  evaluation: requestObject(
    { ...simpleEvaluationFields, id: z.string().uuid().nullish() },
    echo,
    IGNORED_KEYS.simpleEvaluationEcho,
  ),
});

const uuid = z.string().uuid();

export const QUEUE_KINDS = ["traces", "testcases", "queries", "testsets"] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

export const simpleQueueSchema = requestObject(
  {
    name: z.string().max(500).nullish(),
    description: z.string().max(5000).nullish(),
    status: z.literal("running", { error: "a simple queue is created running; leave status out" }).nullish(),
    flags: requestObject({}, IGNORED_KEYS.derivedQueueFlags).nullish(),
    tags: z.record(z.string(), z.unknown()).nullish(),
    meta: z.record(z.string(), z.unknown()).nullish(),
    data: z.strictObject({
      kind: z.enum(QUEUE_KINDS).nullish(),
      queries: z.array(uuid).min(1).nullish().describe("Query revisions whose traces are the rows"),
      testsets: z.array(uuid).min(1).nullish().describe("Testset revisions whose testcases are the rows"),
      application: uuid
        .nullish()
        .describe(
          "An agent (workflow) or prompt (application) revision each row runs through first, so people review its output; without one they review the rows as they are",
        ),
      evaluators: z
        .union([z.array(uuid), z.record(uuid, origin)])
        .nullish()
        .describe("Evaluator revisions: a list (each `human`) or `{revision_id: origin}`"),
      repeats: z.number().int().min(1).max(100).nullish(),
      assignments: z.array(z.array(uuid)).max(100).nullish().describe("One list of users per repeat lane"),
      step_keys: z.array(z.string()).nullish(),
      settings: z
        .strictObject({
          batch_size: z.number().int().min(1).nullish(),
          batch_offset: z.number().int().min(0).nullish(),
        })
        .nullish(),
    }),
  },
  echo,
  IGNORED_KEYS.createdId,
);
export type SimpleQueueInput = z.output<typeof simpleQueueSchema>;

export interface QueuePlan {
  kind: QueueKind;
  evaluators: Record<string, "custom" | "human" | "auto">;
  repeats: number;
}

/**
 * The reference implementation's rules for a simple queue (§8.3), each a 422 with its message: one
 * source (kind `traces`/`testcases`, or query or testset revisions), at least one human evaluator
 * (a bare list is human), repeats at least the assignment lanes. Unlike the
 * reference implementation, a queue without evaluators is a 422 too, not `200 {count: 0}`.
 */
export function planQueue(input: SimpleQueueInput): QueuePlan {
  const data = input.data;
  const fail = (path: string, message: string): never => {
    throw new SchemaValidationError([{ path: `queue.data.${path}`, message }], message);
  };
  if (data.queries && data.testsets) fail("queries", "simple queue source must be either queries or testsets");
  if (!data.kind && !data.queries && !data.testsets) fail("kind", "simple queue requires kind, queries, or testsets");
  if (data.kind === "queries" && !data.queries) fail("queries", "kind='queries' requires query sources");
  if (data.queries && data.kind && data.kind !== "queries") fail("kind", "query-backed queues must use kind='queries'");
  if (data.testsets && data.kind && data.kind !== "testsets")
    fail("kind", "simple queue source must not include kind alongside queries or testsets");
  if (data.kind === "testsets" && !data.testsets) fail("testsets", "kind='testsets' requires testset sources");
  const evaluators = Array.isArray(data.evaluators)
    ? Object.fromEntries(data.evaluators.map((id) => [id, "human" as const]))
    : (data.evaluators ?? {});
  if (Object.keys(evaluators).length === 0)
    fail("evaluators", "a queue needs at least one evaluator: give data.evaluators");
  if (!Object.values(evaluators).includes("human"))
    fail("evaluators", "simple queues must have at least one human evaluator");
  const kind: QueueKind = data.queries ? "queries" : data.testsets ? "testsets" : data.kind!;
  const lanes = data.assignments?.length ?? 0;
  return { kind, evaluators, repeats: Math.max(data.repeats ?? 1, lanes, 1) };
}
