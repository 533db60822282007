import { rawQuery, type Executor } from "@/server/db";
import { isObject } from "./attributes";
import { storedTraceId, traceIdToWire } from "./ids";
import { filteringToSql } from "./query/filtering";
import { SqlParams } from "./query/sql-params";
import { loadTraces } from "./store/read-spans";
import type { SpanRow } from "./wire";

/** What a trace took and gave, for re-running or scoring it (an evaluation's input row). */
export interface TraceSource {
  /** 32 hex digits, the wire form. */
  traceId: string;
  inputs: Record<string, unknown>;
  outputs: unknown;
}

/** Throws the 400 of `POST /api/traces/query` when the filtering is not valid. */
export function checkTraceFiltering(filtering: unknown): void {
  filteringToSql(filtering, new SqlParams());
}

/**
 * Ids (wire form) of the traces with a span matching `filtering` and starting within
 * [oldest, newest], oldest first, at most `limit`. Reads emit no `traces.queried`: this is the
 * service reading for itself, as the reference implementation's evaluation reads are.
 */
export async function matchingTraceIds(
  db: Executor,
  projectId: string,
  filtering: unknown,
  window: { oldest?: Date; newest?: Date; limit: number },
): Promise<string[]> {
  const params = new SqlParams();
  const where = [`project_id = ${params.add(projectId, "::uuid")}`, `(${filteringToSql(filtering, params)})`];
  if (window.oldest) where.push(`start_time >= ${params.add(window.oldest.toISOString(), "::timestamptz")}`);
  if (window.newest) where.push(`start_time <= ${params.add(window.newest.toISOString(), "::timestamptz")}`);
  const rows = await rawQuery<{ trace_id: string }>(
    db,
    `select trace_id::text as trace_id from spans where ${where.join(" and ")}
     group by trace_id order by max(start_time), trace_id limit ${params.add(window.limit, "::int")}`,
    params.values,
  );
  return rows.map((r) => traceIdToWire(r.trace_id));
}

/**
 * The inputs and outputs of traces, by id: the root span's `ag.data.inputs` / `ag.data.outputs`;
 * when the root has none (an agent run records its messages on its model-call spans), the first
 * span's inputs and the last span's outputs that have them. Unknown ids are left out.
 */
export async function loadTraceSources(db: Executor, projectId: string, traceIds: string[]): Promise<TraceSource[]> {
  const traces = await loadTraces(db, projectId, [...new Set(traceIds.map(storedTraceId))]);
  const out: TraceSource[] = [];
  for (const [id, spans] of traces) out.push({ traceId: traceIdToWire(id), ...inputsAndOutputs(spans) });
  return out;
}

export function inputsAndOutputs(spans: SpanRow[]): { inputs: Record<string, unknown>; outputs: unknown } {
  const data = (span: SpanRow) => {
    const ag = span.attributes.ag;
    return isObject(ag) && isObject(ag.data) ? ag.data : {};
  };
  const ids = new Set(spans.map((s) => s.span_id));
  const root = spans.find((s) => !s.parent_id || !ids.has(s.parent_id));
  const byEnd = [...spans].sort((a, b) => (a.end_time < b.end_time ? -1 : a.end_time > b.end_time ? 1 : 0));
  const inputs = (root && data(root).inputs) ?? spans.map((s) => data(s).inputs).find((v) => v !== undefined);
  const outputs = (root && data(root).outputs) ?? byEnd.map((s) => data(s).outputs).findLast((v) => v !== undefined);
  return {
    inputs: plainMessages(isObject(inputs) ? inputs : inputs === undefined ? {} : { inputs }) as Record<
      string,
      unknown
    >,
    outputs: plainMessages(outputs ?? null),
  };
}

/**
 * OpenTelemetry GenAI messages (`{role, parts: [{type: "text", content}]}`) as plain chat
 * messages (`{role, content}`), the form an agent takes as input and evaluators read as output.
 * Other values are kept.
 */
function plainMessages(value: unknown): unknown {
  if (!isObject(value) || !Array.isArray(value.messages)) return value;
  const messages = value.messages.map((m) => {
    if (!isObject(m) || typeof m.role !== "string" || !Array.isArray(m.parts)) return m;
    const text = m.parts
      .filter((p) => isObject(p) && p.type === "text" && typeof p.content === "string")
      .map((p) => (p as { content: string }).content)
      .join("");
    return { role: m.role, content: text };
  });
  return { ...value, messages };
}
