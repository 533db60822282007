import { z } from "zod";
import { compact } from "@/server/core/compact";
import { isoTimestampSchema } from "@/server/core/time";
import { withMetricKeyAliases } from "./metric-key-aliases";
import { readRunData } from "./run-data";
import type { MetricsRow, QueueRow, ResultRow, EvaluationRunRow, ScenarioRow } from "./rows";
import { EVALUATION_VERSION, STATUSES } from "./statuses";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const userData = z.record(z.string(), z.unknown());
const flagsWire = z.record(z.string(), z.boolean());
const statusWire = z.enum(STATUSES);

/** The run's data as stored: its steps and repeats always, the rest as given. */
const runDataWire = z.looseObject({ steps: z.array(userData), repeats: z.number().int() });

export const runWire = z.strictObject({
  id: z.string(),
  version: z.literal(EVALUATION_VERSION),
  name: z.string().optional(),
  description: z.string().optional(),
  status: statusWire,
  flags: flagsWire,
  tags: userData.optional(),
  meta: userData.optional(),
  data: runDataWire,
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
  created_by_id: z.string().optional(),
  updated_by_id: z.string().optional(),
});

export function runToWire(row: EvaluationRunRow) {
  const { testcases: _inline, trace_ids: _traces, ...data } = readRunData(row.data);
  return compact({
    id: row.id,
    version: EVALUATION_VERSION,
    name: row.name,
    description: row.description,
    status: row.status,
    flags: row.flags,
    tags: row.tags,
    meta: row.meta,
    data,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    created_by_id: row.createdById,
    updated_by_id: row.updatedById,
  });
}

export const scenarioWire = z.strictObject({
  id: z.string(),
  version: z.literal(EVALUATION_VERSION),
  run_id: z.string(),
  status: statusWire,
  interval: z.number().int().optional(),
  timestamp: isoTimestampSchema.optional(),
  flags: flagsWire.optional(),
  tags: userData.optional(),
  meta: userData.optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
});

export function scenarioToWire(row: ScenarioRow) {
  return compact({
    id: row.id,
    version: EVALUATION_VERSION,
    run_id: row.runId,
    status: row.status,
    interval: row.interval,
    timestamp: iso(row.timestamp),
    flags: row.flags,
    tags: row.tags,
    meta: row.meta,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  });
}

export const resultWire = z.strictObject({
  id: z.string(),
  version: z.literal(EVALUATION_VERSION),
  run_id: z.string(),
  scenario_id: z.string(),
  step_key: z.string(),
  repeat_idx: z.number().int(),
  status: statusWire,
  trace_id: z.string().optional(),
  testcase_id: z.string().optional(),
  hash_id: z.string().optional(),
  error: z.unknown().optional(),
  interval: z.number().int().optional(),
  timestamp: isoTimestampSchema.optional(),
  flags: flagsWire.optional(),
  tags: userData.optional(),
  meta: userData.optional(),
  data: z
    .strictObject({
      outputs: z.unknown().optional(),
      latency_ms: z.number().optional(),
      tokens: z.number().int().optional(),
      cost_usd: z.number().optional(),
      attempts: z.number().int().optional(),
    })
    .optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
});

/**
 * A cell. Beyond the reference implementation: `data` carries what the step produced and what it
 * cost, so a client reads a row without fetching every trace.
 */
export function resultToWire(row: ResultRow) {
  const data = compact({
    outputs: row.outputs,
    latency_ms: row.latencyMs,
    tokens: row.tokens,
    cost_usd: row.costUsd,
    attempts: row.attempts || null,
  });
  return compact({
    id: row.id,
    version: EVALUATION_VERSION,
    run_id: row.runId,
    scenario_id: row.scenarioId,
    step_key: row.stepKey,
    repeat_idx: row.repeatIdx,
    status: row.status,
    trace_id: row.traceId,
    testcase_id: row.testcaseId,
    hash_id: row.hashId,
    error: row.error,
    interval: row.interval,
    timestamp: iso(row.timestamp),
    flags: row.flags,
    tags: row.tags,
    meta: row.meta,
    data: Object.keys(data).length ? data : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  });
}

export const metricsWire = z.strictObject({
  id: z.string(),
  version: z.literal(EVALUATION_VERSION),
  run_id: z.string(),
  scenario_id: z.string().optional(),
  timestamp: isoTimestampSchema.optional(),
  interval: z.number().int().optional(),
  status: statusWire,
  data: userData.optional(),
  flags: flagsWire.optional(),
  tags: userData.optional(),
  meta: userData.optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
});

export function metricsToWire(row: MetricsRow) {
  return compact({
    id: row.id,
    version: EVALUATION_VERSION,
    run_id: row.runId,
    scenario_id: row.scenarioId,
    timestamp: iso(row.timestamp),
    interval: row.interval,
    status: row.status,
    data: withMetricKeyAliases(row.data),
    flags: row.flags,
    tags: row.tags,
    meta: row.meta,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  });
}

export const queueWire = z.strictObject({
  id: z.string(),
  version: z.literal(EVALUATION_VERSION),
  run_id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  status: statusWire,
  flags: flagsWire,
  tags: userData.optional(),
  meta: userData.optional(),
  data: userData.optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.optional(),
  deleted_at: isoTimestampSchema.optional(),
  created_by_id: z.string().optional(),
});

export function queueToWire(row: QueueRow) {
  return compact({
    id: row.id,
    version: EVALUATION_VERSION,
    run_id: row.runId,
    name: row.name,
    description: row.description,
    status: row.status,
    flags: row.flags,
    tags: row.tags,
    meta: row.meta,
    data: row.data,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    deleted_at: iso(row.deletedAt),
    created_by_id: row.createdById,
  });
}
