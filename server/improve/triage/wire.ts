import { z } from "zod";
import { toIso } from "@/server/core/time";

/** The most failures one triage groups. */
export const MAX_TRIAGE_ITEMS = 5000;

const iso = z.iso.datetime({ offset: true });
const usd = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'a decimal amount in US dollars, e.g. "0.50"')
  .refine((v) => Number(v) > 0, "must be more than 0");

const tracesEvidence = z.strictObject({
  kind: z.literal("traces"),
  filter: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The `filtering` of POST /api/traces/query; every trace it matches in the window is a failure to group"),
  oldest: iso.optional(),
  newest: iso.optional(),
  limit: z.number().int().min(1).max(MAX_TRIAGE_ITEMS).default(1000),
});
const monitorEvidence = z.strictObject({
  kind: z.literal("monitor_alert"),
  monitor_id: z.string().uuid(),
  alert_id: z.string().uuid().optional().describe("Default: the monitor's latest firing"),
});
const runEvidence = z.strictObject({
  kind: z.literal("evaluation_run"),
  run_id: z.string().uuid(),
  below: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe("A cell scored below this (or failed, or verdict false) is a failure"),
});
const annotationEvidence = z.strictObject({
  kind: z.literal("annotations"),
  queue_id: z.string().uuid().optional(),
  oldest: iso.optional(),
  newest: iso.optional(),
});

export const evidenceSchema = z.discriminatedUnion("kind", [
  tracesEvidence,
  monitorEvidence,
  runEvidence,
  annotationEvidence,
]);
export type Evidence = z.output<typeof evidenceSchema>;

export const startTriageBody = z.strictObject({
  evidence: evidenceSchema,
  model: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("`provider/model` reached through the project's connections; absent: grouped by what is known"),
  max_examples_per_mode: z.number().int().min(1).max(50).default(5),
  budget_usd: usd.optional().describe("Spend cap of the model calls; reached, the triage ends with what it has"),
});
export type StartTriageBody = z.output<typeof startTriageBody>;

export const triageListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().uuid().optional().describe("`next_cursor` of the previous page"),
});

export const failureModeTestsetBody = z.strictObject({
  testset_id: z.string().uuid().optional().describe("Add a revision to this testset; absent: a new testset"),
  name: z.string().trim().min(1).max(200).optional(),
});
export const failureModeEvaluatorBody = z.strictObject({
  kind: z.enum(["llm_judge", "regex", "code"]),
});

const exampleWire = z.object({
  trace_id: z.string().optional(),
  span_id: z.string().optional(),
  testcase_id: z.string().optional(),
  input: z.unknown(),
  output: z.unknown(),
  feedback: z.string().optional(),
  expected: z.unknown().optional(),
});
const signatureWire = z.object({
  evaluator: z.string().optional(),
  error_class: z.string().optional(),
  tool: z.string().optional(),
  stop_reason: z.string().optional(),
});

export const failureModeWire = z.object({
  id: z.string(),
  triage_id: z.string(),
  name: z.string(),
  description: z.string(),
  count: z.number().int(),
  examples: z.array(exampleWire),
  signature: signatureWire,
});

export const TRIAGE_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type TriageStatus = (typeof TRIAGE_STATUSES)[number];

export const triageWire = z.object({
  id: z.string(),
  status: z.enum(TRIAGE_STATUSES),
  method: z.enum(["model", "heuristic"]),
  method_note: z.string().optional(),
  evidence: z.record(z.string(), z.unknown()),
  model: z.string().optional(),
  max_examples_per_mode: z.number().int(),
  budget_usd: z.string().optional(),
  progress: z.object({
    examined: z.number().int(),
    total: z.number().int(),
    batches_done: z.number().int(),
    batches_total: z.number().int(),
    spend_usd: z.string(),
  }),
  failure_modes: z.array(failureModeWire),
  cost_usd: z.string(),
  stop_reason: z.literal("budget").optional(),
  note: z.string().optional(),
  error: z.string().optional(),
  created_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
});
export type TriageWire = z.infer<typeof triageWire>;
export type FailureModeWire = z.infer<typeof failureModeWire>;

export const triageResponse = z.object({ count: z.literal(1), triage: triageWire });
export const triagesResponse = z.object({
  count: z.number().int(),
  triages: z.array(triageWire),
  next_cursor: z.string().optional(),
});
export const failureModeResponse = z.object({ count: z.literal(1), failure_mode: failureModeWire });
export const testsetRevisionResponse = z.object({
  count: z.literal(1),
  testset_revision: z.object({
    testset_id: z.string(),
    testset_slug: z.string(),
    revision_id: z.string(),
    version: z.string(),
    testcases: z.number().int(),
  }),
});
export const evaluatorResponse = z.object({
  count: z.literal(1),
  evaluator: z.object({
    evaluator_id: z.string(),
    evaluator_slug: z.string(),
    revision_id: z.string(),
    kind: z.enum(["llm_judge", "regex", "code"]),
    summary: z.string(),
  }),
});

/** Dollars as the wire writes them: a decimal string, at most 6 places, no trailing zeros. */
export function usdText(amount: number): string {
  return String(Math.round(amount * 1e6) / 1e6);
}

/** One failure as collected from the evidence (stored in `items`); the examples are cut from these. */
export interface TriageItem {
  trace_id?: string;
  span_id?: string;
  testcase_id?: string;
  input: unknown;
  output: unknown;
  feedback?: string;
  expected?: unknown;
  evaluator?: string;
  error_class?: string;
  tool?: string;
  stop_reason?: string;
}

export interface ModeRow {
  id: string;
  triageId: string;
  name: string;
  description: string;
  count: number;
  examples: Record<string, unknown>[];
  signature: Record<string, string>;
}

export function failureModeToWire(row: ModeRow): FailureModeWire {
  return {
    id: row.id,
    triage_id: row.triageId,
    name: row.name,
    description: row.description,
    count: row.count,
    examples: row.examples as FailureModeWire["examples"],
    signature: row.signature,
  };
}

export interface TriageRow {
  id: string;
  status: string;
  method: string;
  methodNote: string | null;
  evidence: Record<string, unknown>;
  model: string | null;
  maxExamplesPerMode: number;
  budgetUsd: number | null;
  progress: Record<string, unknown>;
  spendUsd: number;
  stopReason: string | null;
  note: string | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export function triageToWire(row: TriageRow, modes: ModeRow[]): TriageWire {
  const p = row.progress as Partial<Record<"examined" | "total" | "batches_done" | "batches_total", number>>;
  return {
    id: row.id,
    status: row.status as TriageStatus,
    method: row.method as "model" | "heuristic",
    ...(row.methodNote ? { method_note: row.methodNote } : {}),
    evidence: row.evidence,
    ...(row.model ? { model: row.model } : {}),
    max_examples_per_mode: row.maxExamplesPerMode,
    ...(row.budgetUsd !== null ? { budget_usd: usdText(row.budgetUsd) } : {}),
    progress: {
      examined: p.examined ?? 0,
      total: p.total ?? 0,
      batches_done: p.batches_done ?? 0,
      batches_total: p.batches_total ?? 0,
      spend_usd: usdText(row.spendUsd),
    },
    failure_modes: modes.map(failureModeToWire),
    cost_usd: usdText(row.spendUsd),
    ...(row.stopReason === "budget" ? { stop_reason: "budget" as const } : {}),
    ...(row.note ? { note: row.note } : {}),
    ...(row.error ? { error: row.error } : {}),
    created_at: toIso(row.createdAt),
    ...(row.startedAt ? { started_at: toIso(row.startedAt) } : {}),
    ...(row.finishedAt ? { finished_at: toIso(row.finishedAt) } : {}),
  };
}
