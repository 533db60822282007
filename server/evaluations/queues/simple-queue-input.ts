import { z } from "zod";
import { SchemaValidationError } from "@/server/core/errors";
import { statusSchema } from "../model/statuses";

const uuid = z.string().uuid();
const origin = z.enum(["custom", "human", "auto"]);

export const QUEUE_KINDS = ["traces", "testcases", "queries", "testsets"] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

export const simpleQueueSchema = z.object({
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  status: statusSchema.nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  data: z.object({
    kind: z.enum(QUEUE_KINDS).nullish(),
    queries: z.array(uuid).min(1).nullish().describe("Query revisions whose traces are the rows"),
    testsets: z.array(uuid).min(1).nullish().describe("Testset revisions whose testcases are the rows"),
    evaluators: z
      .union([z.array(uuid), z.record(uuid, origin)])
      .nullish()
      .describe("Evaluator revisions: a list (each `human`) or `{revision_id: origin}`"),
    repeats: z.number().int().min(1).max(100).nullish(),
    assignments: z.array(z.array(uuid)).max(100).nullish().describe("One list of users per repeat lane"),
    step_keys: z.array(z.string()).nullish(),
    settings: z
      .object({ batch_size: z.number().int().min(1).nullish(), batch_offset: z.number().int().min(0).nullish() })
      .nullish(),
  }),
});
export type SimpleQueueInput = z.output<typeof simpleQueueSchema>;

export interface QueuePlan {
  kind: QueueKind;
  evaluators: Record<string, "custom" | "human" | "auto">;
  repeats: number;
}

/**
 * The reference's rules for a simple queue (§8.3), each a 422 with its message: one source (kind
 * `traces`/`testcases`, or query or testset revisions), at least one human evaluator (a bare
 * list is human), repeats at least the assignment lanes. Unlike the reference, a queue without
 * evaluators is a 422 too, not `200 {count: 0}`.
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
