import { compact } from "@/server/core/compact";
import { readRunData } from "./run-data";
import type { MetricsRow, QueueRow, ResultRow, RunRow, ScenarioRow } from "./rows";
import { EVALUATION_VERSION } from "./statuses";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function runToWire(row: RunRow) {
  const { testcases: _inline, ...data } = readRunData(row.data);
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

/**
 * A cell. Beyond the reference: `data` carries what the step produced and what it cost, so a
 * client reads a row without fetching every trace.
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

export function metricsToWire(row: MetricsRow) {
  return compact({
    id: row.id,
    version: EVALUATION_VERSION,
    run_id: row.runId,
    scenario_id: row.scenarioId,
    timestamp: iso(row.timestamp),
    interval: row.interval,
    status: row.status,
    data: row.data,
    flags: row.flags,
    tags: row.tags,
    meta: row.meta,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  });
}

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
