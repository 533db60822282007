import { rawQuery, type Executor } from "@/server/db";
import { lockTraces } from "./trace-locks";
import { totalTrace, type TotalsNode } from "../trace-totals";
import type { SpanRecord } from "../span-record";
import { forgetTraceBounds, withBounds } from "./span-bounds";
import { spanFacts, type FactSpan } from "./span-facts";
import type { RollupDelta } from "./rollup-delta";

/** The columns a batch carries, in `jsonb_to_recordset` form (names are SpanRecord's keys). */
const RECORD_COLUMNS = `trace_id uuid, span_id uuid, parent_id uuid, start_time timestamptz, end_time timestamptz,
  trace_type text, span_type text, span_kind text, span_name text, status_code text, status_message text,
  session_id text, user_id text, agent_id text, attributes jsonb, "references" jsonb, links jsonb, events jsonb,
  exception jsonb, resource jsonb`;
const INSERT_COLUMNS = `project_id, trace_id, span_id, parent_id, start_time, end_time, trace_type, span_type, span_kind,
  span_name, status_code, status_message, session_id, user_id, agent_id, attributes, "references", links, events,
  exception, resource`;

// A join, not `trace_id = any(...)`: on a young partition without statistics the planner may pick a
// sequential scan, and `= any` then compares every row with every id (seconds per batch). Bounded
// by the traces' time range (span-bounds.ts), known when the executor starts, so only the
// partitions it covers are read. Times in ISO 8601 to the microsecond: the key of the delete, and
// what the roll-up's facts read.
const LOAD_TRACES = `with b as (select min(first_start) as lo, max(last_start) as hi from trace_bounds
    where project_id = $1::uuid and trace_id = any($2::text::uuid[]))
  select s.trace_id::text, s.span_id::text, s.parent_id::text, to_json(s.start_time) #>> '{}' as start_time,
    to_json(s.end_time) #>> '{}' as end_time, s.trace_type, s.status_code, s.user_id, s.agent_id, s.attributes, s."references"
  from unnest($2::text::uuid[]) as t(id) join spans s on s.project_id = $1::uuid and s.trace_id = t.id
  where s.start_time >= (select lo from b) and s.start_time <= (select hi from b)`;

/**
 * The statements that change `spans`; the roll-up of their changes is upserted after them
 * (rollup-upsert.ts). The inserts widen the bounds of the traces and sessions they write in the
 * same statement (span-bounds.ts).
 */
export const WRITE_STATEMENTS = {
  insertSpans: withBounds(`insert into spans (${INSERT_COLUMNS})
  select $1::uuid, r.* from jsonb_to_recordset($2::text::jsonb) as r(${RECORD_COLUMNS})`),

  /** Every span of the given ingest rows, straight from their queued payloads (the worker's fast path). */
  insertFromQueue: withBounds(`insert into spans (${INSERT_COLUMNS})
  select i.project_id, r.* from span_ingest i cross join lateral jsonb_to_recordset(i.payload::jsonb) as r(${RECORD_COLUMNS})
  where i.id = any($1::text::bigint[])`),

  deleteSpans: `delete from spans s using jsonb_to_recordset($2::text::jsonb) as d(trace_id uuid, span_id uuid, start_time timestamptz)
  where s.project_id = $1::uuid and s.trace_id = d.trace_id and s.span_id = d.span_id and s.start_time = d.start_time`,

  updateAttributes: `update spans s set attributes = u.attributes, updated_at = now()
  from jsonb_to_recordset($2::text::jsonb) as u(trace_id uuid, span_id uuid, start_time timestamptz, attributes jsonb)
  where s.project_id = $1::uuid and s.trace_id = u.trace_id and s.span_id = u.span_id and s.start_time = u.start_time`,
};

interface StoredSpan extends FactSpan {
  trace_id: string;
  span_id: string;
}

export interface WriteResult {
  inserted: number;
  replaced: number;
  rolledUp: number;
}

/**
 * Writes one project's spans inside the caller's transaction: a span already stored under the
 * same (trace, span) id is replaced (whatever its start time, so across partitions), and token,
 * cost and error totals are rolled up from children to parents over the whole stored trace, so
 * spans of one trace may arrive in any order and in any number of batches.
 *
 * Each trace is locked (a transaction-scoped advisory lock, taken in one sorted order, so two
 * workers never deadlock) before it is read: two workers writing spans of one trace take turns,
 * which keeps both the one-row-per-span rule and the roll-up exact.
 *
 * Every change is added to `rollups` (when given): -1 for a replaced span, +1 for a written one,
 * the old facts out and the new in for a stored root whose totals changed. The caller upserts it
 * in the same transaction.
 */
export async function writeSpans(
  tx: Executor,
  projectId: string,
  batch: SpanRecord[],
  replaceTraces: Set<string> = new Set(),
  rollups?: RollupDelta,
): Promise<WriteResult> {
  // Within a batch the last copy of a span wins, as a later batch would.
  const incoming = new Map<string, SpanRecord>();
  for (const span of batch) incoming.set(`${span.trace_id}/${span.span_id}`, span);
  const spans = [...incoming.values()];
  const traceIds = [...new Set([...spans.map((s) => s.trace_id), ...replaceTraces])];
  if (traceIds.length === 0) return { inserted: 0, replaced: 0, rolledUp: 0 };

  await lockTraces(
    tx,
    traceIds.map((traceId) => ({ projectId, traceId })),
  );
  const stored = await rawQuery<StoredSpan>(tx, LOAD_TRACES, [projectId, `{${traceIds.join(",")}}`]);

  // A replaced trace loses its stored spans that the batch does not carry.
  const replaced = stored.filter((s) => incoming.has(`${s.trace_id}/${s.span_id}`) || replaceTraces.has(s.trace_id));
  const kept = stored.filter((s) => !incoming.has(`${s.trace_id}/${s.span_id}`) && !replaceTraces.has(s.trace_id));

  // Total each trace over the kept stored spans and the incoming ones.
  const nodesByTrace = new Map<string, TotalsNode[]>();
  const push = (traceId: string, node: TotalsNode) => {
    const list = nodesByTrace.get(traceId) ?? [];
    list.push(node);
    nodesByTrace.set(traceId, list);
  };
  for (const s of kept) push(s.trace_id, s);
  for (const s of spans) push(s.trace_id, s);
  const keptSet = new Set<TotalsNode>(kept);
  // totalTrace below rewrites cumulative totals in place, and the only facts they feed are a
  // root's (the run's tokens and costs): a kept root's facts are copied before, and a kept span
  // under it counts the same before and after.
  const rootFacts = rollups
    ? new Map(kept.filter((s) => s.parent_id === null).map((s) => [s, structuredClone(spanFacts(s))]))
    : undefined;
  const changedKept: StoredSpan[] = [];
  for (const nodes of nodesByTrace.values()) {
    const changed = totalTrace(nodes);
    for (const node of nodes) if (changed.has(node.span_id) && keptSet.has(node)) changedKept.push(node as StoredSpan);
  }

  if (rollups) {
    for (const s of replaced) rollups.addSpan(projectId, s, -1);
    for (const s of spans) rollups.addSpan(projectId, s, 1);
    for (const s of changedKept) {
      const before = rootFacts!.get(s);
      if (!before) continue;
      rollups.addFacts(projectId, before, -1);
      rollups.addSpan(projectId, s, 1);
    }
  }
  if (replaced.length > 0) {
    await rawQuery(tx, WRITE_STATEMENTS.deleteSpans, [
      projectId,
      JSON.stringify(replaced.map((s) => ({ trace_id: s.trace_id, span_id: s.span_id, start_time: s.start_time }))),
    ]);
  }
  if (spans.length > 0) await rawQuery(tx, WRITE_STATEMENTS.insertSpans, [projectId, JSON.stringify(spans)]);
  // A trace replaced by nothing (a delete) keeps no bounds.
  const emptied = [...replaceTraces].filter((t) => !spans.some((s) => s.trace_id === t));
  await forgetTraceBounds(tx, projectId, emptied);
  if (changedKept.length > 0) {
    await rawQuery(tx, WRITE_STATEMENTS.updateAttributes, [
      projectId,
      JSON.stringify(
        changedKept.map((s) => ({
          trace_id: s.trace_id,
          span_id: s.span_id,
          start_time: s.start_time,
          attributes: s.attributes,
        })),
      ),
    ]);
  }
  return { inserted: spans.length - replaced.length, replaced: replaced.length, rolledUp: changedKept.length };
}
