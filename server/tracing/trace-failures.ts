import { rawQuery, type Executor } from "@/server/db";
import { getPath, isObject } from "./attributes";
import { spanIdToWire, storedTraceId, traceIdToWire } from "./ids";
import { SqlParams } from "./query/sql-params";
import { spanDimensionsSql, type SpanDimension } from "./store/span-facts";
import { loadTraces } from "./store/read-spans";
import { inputsAndOutputs } from "./trace-sources";
import type { SpanRow } from "./wire";

/** What is known of why a trace failed, for grouping failures (server/improve's triage). */
export interface TraceFacts {
  /** 32 hex digits, the wire form. */
  traceId: string;
  /** The root span (16 hex digits). */
  spanId?: string;
  inputs: Record<string, unknown>;
  outputs: unknown;
  /** The exception type of the span that failed last (`AgentRunError`, a client's own class). */
  errorClass?: string;
  errorMessage?: string;
  /** Tools called, in order (names), and those that failed. */
  tools: string[];
  failedTools: string[];
  /** The run's stop reason (`end_turn`, `max_tokens`, `error`, ...), or the last model call's finish reason. */
  stopReason?: string;
}

/**
 * Ids (wire form) of the traces whose root span failed (status error) and started within
 * [oldest, newest], optionally only those whose root carries `dimension` (the analytics dimension
 * a monitor is scoped to), oldest first, at most `limit`.
 */
export async function failingTraceIds(
  db: Executor,
  projectId: string,
  window: { oldest: Date; newest: Date; limit: number; dimension?: { name: SpanDimension; value: string } },
): Promise<string[]> {
  const params = new SqlParams();
  const where = [
    `s.project_id = ${params.add(projectId, "::uuid")}`,
    "s.parent_id is null",
    "s.status_code = 'STATUS_CODE_ERROR'",
    `s.start_time >= ${params.add(window.oldest.toISOString(), "::timestamptz")}`,
    `s.start_time <= ${params.add(window.newest.toISOString(), "::timestamptz")}`,
  ];
  if (window.dimension)
    where.push(`${spanDimensionsSql("s")[window.dimension.name]} = ${params.add(window.dimension.value, "::text")}`);
  const rows = await rawQuery<{ trace_id: string }>(
    db,
    `select s.trace_id::text as trace_id from spans s where ${where.join(" and ")}
     order by s.start_time, s.trace_id limit ${params.add(window.limit, "::int")}`,
    params.values,
  );
  return [...new Set(rows.map((r) => traceIdToWire(r.trace_id)))];
}

/** The facts of traces, by id (wire or stored form); unknown ids are left out. */
export async function loadTraceFacts(db: Executor, projectId: string, traceIds: string[]): Promise<TraceFacts[]> {
  const traces = await loadTraces(db, projectId, [...new Set(traceIds.map(storedTraceId))]);
  return [...traces].map(([id, spans]) => ({
    traceId: traceIdToWire(id),
    ...inputsAndOutputs(spans),
    ...factsOf(spans),
  }));
}

const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

function factsOf(spans: SpanRow[]): Omit<TraceFacts, "traceId" | "inputs" | "outputs"> {
  const ids = new Set(spans.map((s) => s.span_id));
  const root = spans.find((s) => !s.parent_id || !ids.has(s.parent_id));
  const toolName = (s: SpanRow) =>
    text(getPath(s.attributes, ["gen_ai", "tool", "name"])) ??
    (s.span_type === "tool" ? s.span_name.replace(/^execute_tool /, "") : undefined);
  const tools = spans.map(toolName).filter((n): n is string => n !== undefined);
  const failedTools = spans
    .filter((s) => s.status_code === "STATUS_CODE_ERROR" && toolName(s) !== undefined)
    .map((s) => toolName(s)!);
  const failing = spans.filter((s) => s.status_code === "STATUS_CODE_ERROR" || s.exception);
  const last = failing.at(-1);
  const exception = failing.map((s) => s.exception).findLast(isObject);
  const finish = spans
    .map((s) => getPath(s.attributes, ["gen_ai", "response", "finish_reasons"]))
    .findLast((v) => Array.isArray(v) && v.length > 0) as unknown[] | undefined;
  const stopReason =
    (root && text(getPath(root.attributes, ["ag", "meta", "run", "stop_reason"]))) ?? text(finish?.at(-1));
  const errorClass = text(exception?.type);
  const errorMessage = text(exception?.message) ?? text(last?.status_message);
  return {
    ...(root ? { spanId: spanIdToWire(root.span_id) } : {}),
    ...(errorClass ? { errorClass } : {}),
    ...(errorMessage ? { errorMessage } : {}),
    tools,
    failedTools: [...new Set(failedTools)],
    ...(stopReason ? { stopReason } : {}),
  };
}
