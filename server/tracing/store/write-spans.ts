import { rawQuery, type Executor } from "@/server/db";
import { lockTraces } from "./trace-locks";
import { rollUpTrace, type RollupNode } from "../rollup";
import type { SpanRecord } from "../span-record";
import { CHANGE_COLUMNS, withRollups } from "./span-rollups";

/** The columns a batch carries, in `jsonb_to_recordset` form (names are SpanRecord's keys). */
const RECORD_COLUMNS = `trace_id uuid, span_id uuid, parent_id uuid, start_time timestamptz, end_time timestamptz,
  trace_type text, span_type text, span_kind text, span_name text, status_code text, status_message text,
  session_id text, user_id text, agent_id text, attributes jsonb, "references" jsonb, links jsonb, events jsonb,
  exception jsonb, resource jsonb`;
const INSERT_COLUMNS = `project_id, trace_id, span_id, parent_id, start_time, end_time, trace_type, span_type, span_kind,
  span_name, status_code, status_message, session_id, user_id, agent_id, attributes, "references", links, events,
  exception, resource`;

// A join, not `trace_id = any(...)`: on a young partition without statistics the planner may pick a
// sequential scan, and `= any` then compares every row with every id (seconds per batch).
const LOAD_TRACES = `select s.trace_id::text, s.span_id::text, s.parent_id::text, s.start_time::text as start_time, s.attributes
  from unnest($2::text::uuid[]) as t(id) join spans s on s.project_id = $1::uuid and s.trace_id = t.id`;

/**
 * The statements that change `spans`, each rolling its change up (store/span-rollups.ts); without
 * roll-ups only for the ingest benchmark's baseline.
 */
function writeStatements(rollups: boolean) {
  return {
    insertSpans: withRollups(
      `span_changes as (insert into spans (${INSERT_COLUMNS})
  select $1::uuid, r.* from jsonb_to_recordset($2::text::jsonb) as r(${RECORD_COLUMNS})
  returning ${CHANGE_COLUMNS("spans")}, 1 as sign)`,
      rollups,
    ),

    /** Every span of the given ingest rows, straight from their queued payloads (the worker's fast path). */
    insertFromQueue: withRollups(
      `span_changes as (insert into spans (${INSERT_COLUMNS})
  select i.project_id, r.* from span_ingest i cross join lateral jsonb_to_recordset(i.payload::jsonb) as r(${RECORD_COLUMNS})
  where i.id = any($1::text::bigint[])
  returning ${CHANGE_COLUMNS("spans")}, 1 as sign)`,
      rollups,
    ),

    deleteSpans: withRollups(
      `span_changes as (delete from spans s using jsonb_to_recordset($2::text::jsonb) as d(trace_id uuid, span_id uuid, start_time timestamptz)
  where s.project_id = $1::uuid and s.trace_id = d.trace_id and s.span_id = d.span_id and s.start_time = d.start_time
  returning ${CHANGE_COLUMNS("s")}, -1 as sign)`,
      rollups,
    ),

    // The CTEs see the rows as they were before the statement: `old` takes the stored rows out of the
    // roll-up, `new` puts the updated ones in.
    updateAttributes: withRollups(
      `u as (select * from jsonb_to_recordset($2::text::jsonb) as u(trace_id uuid, span_id uuid, start_time timestamptz, attributes jsonb)),
  old as (select ${CHANGE_COLUMNS("s")}, -1 as sign from spans s join u
    on s.project_id = $1::uuid and s.trace_id = u.trace_id and s.span_id = u.span_id and s.start_time = u.start_time),
  new as (update spans s set attributes = u.attributes, updated_at = now() from u
    where s.project_id = $1::uuid and s.trace_id = u.trace_id and s.span_id = u.span_id and s.start_time = u.start_time
    returning ${CHANGE_COLUMNS("s")}, 1 as sign),
  span_changes as (select * from old union all select * from new)`,
      rollups,
    ),
  };
}

export const WRITE_STATEMENTS = { rollups: writeStatements(true), bare: writeStatements(false) };

interface StoredSpan {
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  /** PostgreSQL's text form, microseconds included. */
  start_time: string;
  attributes: Record<string, unknown>;
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
 */
export async function writeSpans(
  tx: Executor,
  projectId: string,
  batch: SpanRecord[],
  replaceTraces: Set<string> = new Set(),
  statements = WRITE_STATEMENTS.rollups,
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

  // Roll up per trace over the kept stored spans and the incoming ones.
  const nodesByTrace = new Map<string, RollupNode[]>();
  const push = (traceId: string, node: RollupNode) => {
    const list = nodesByTrace.get(traceId) ?? [];
    list.push(node);
    nodesByTrace.set(traceId, list);
  };
  for (const s of kept) push(s.trace_id, s);
  for (const s of spans) push(s.trace_id, s);
  const keptSet = new Set<RollupNode>(kept);
  const changedKept: StoredSpan[] = [];
  for (const nodes of nodesByTrace.values()) {
    const changed = rollUpTrace(nodes);
    for (const node of nodes) if (changed.has(node.span_id) && keptSet.has(node)) changedKept.push(node as StoredSpan);
  }

  if (replaced.length > 0) {
    await rawQuery(tx, statements.deleteSpans, [
      projectId,
      JSON.stringify(replaced.map((s) => ({ trace_id: s.trace_id, span_id: s.span_id, start_time: s.start_time }))),
    ]);
  }
  if (spans.length > 0) await rawQuery(tx, statements.insertSpans, [projectId, JSON.stringify(spans)]);
  if (changedKept.length > 0) {
    await rawQuery(tx, statements.updateAttributes, [
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
