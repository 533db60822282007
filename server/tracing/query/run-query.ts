import { rawQuery, type Executor } from "@/server/db";
import { loadTraces } from "../store/read-spans";
import { sessionRange, traceRange, type TimeRange } from "../store/span-bounds";
import { SPAN_ROW_COLUMNS, type SpanRow } from "../wire";
import { filteringToSql, requiredIds } from "./filtering";
import { SqlParams } from "./sql-params";
import { encodeCursor, type QueryWindow } from "./windowing";

export interface TracePage {
  traces: { traceId: string; spans: SpanRow[] }[];
  next?: string;
}

export interface SpanPage {
  spans: SpanRow[];
  next?: string;
}

/**
 * The time range a filtering confines its matches to, through the trace or session ids it requires
 * (their bounds, store/span-bounds.ts): `undefined` when it requires none, `null` when a required
 * trace or session has no stored span (nothing can match). A query without a window (a session's
 * traces, a trace by id) then reads the partitions of that range instead of probing every one.
 */
async function idRange(db: Executor, projectId: string, filtering: unknown): Promise<TimeRange | null | undefined> {
  const { traceIds, sessionIds } = requiredIds(filtering);
  let range: TimeRange | undefined;
  const lookups = [
    ...traceIds.map((ids) => () => traceRange(db, projectId, ids)),
    ...sessionIds.map((ids) => () => sessionRange(db, projectId, ids)),
  ];
  for (const lookup of lookups) {
    const r = await lookup();
    if (!r) return null;
    range = range ? { from: r.from > range.from ? r.from : range.from, to: r.to < range.to ? r.to : range.to } : r;
  }
  return range;
}

async function baseConditions(
  db: Executor,
  projectId: string,
  filtering: unknown,
  window: QueryWindow,
  params: SqlParams,
): Promise<string[] | null> {
  const where = [`project_id = ${params.add(projectId, "::uuid")}`, `(${filteringToSql(filtering, params)})`];
  const range = await idRange(db, projectId, filtering);
  if (range === null) return null;
  if (range) {
    where.push(`start_time >= ${params.add(range.from, "::timestamptz")}`);
    where.push(`start_time <= ${params.add(range.to, "::timestamptz")}`);
  }
  if (window.newest) where.push(`start_time <= ${params.add(window.newest, "::timestamptz")}`);
  if (window.oldest) where.push(`start_time >= ${params.add(window.oldest, "::timestamptz")}`);
  if (window.rate !== undefined) {
    where.push(
      `(('x' || lpad(substr(replace(trace_id::text, '-', ''), 1, 8), 16, '0'))::bit(64)::bigint % 100) < ${params.add(Math.round(window.rate * 100), "::int")}`,
    );
  }
  return where;
}

/**
 * Trace focus: traces ranked by the latest start among their matching spans (newest first unless
 * ascending), `limit` traces a page, every span of each returned trace.
 */
export async function queryTracePage(
  db: Executor,
  projectId: string,
  filtering: unknown,
  window: QueryWindow,
): Promise<TracePage> {
  const params = new SqlParams();
  const where = await baseConditions(db, projectId, filtering, window, params);
  if (!where) return { traces: [] };
  const cmp = window.ascending ? ">" : "<";
  const dir = window.ascending ? "asc" : "desc";
  const having = window.cursor
    ? `having (max(start_time), trace_id) ${cmp} (${params.add(window.cursor.time, "::timestamptz")}, ${params.add(window.cursor.traceId, "::uuid")})`
    : "";
  const ranked = await rawQuery<{ trace_id: string; rank_time: string }>(
    db,
    `select trace_id::text as trace_id, max(start_time)::text as rank_time from spans where ${where.join(" and ")}
     group by trace_id ${having} order by max(start_time) ${dir}, trace_id ${dir} limit ${params.add(window.limit + 1, "::int")}`,
    params.values,
  );
  const page = ranked.slice(0, window.limit);
  const spans = await loadTraces(
    db,
    projectId,
    page.map((r) => r.trace_id),
  );
  const last = page.at(-1);
  return {
    traces: page
      .map((r) => ({ traceId: r.trace_id, spans: spans.get(r.trace_id) ?? [] }))
      .filter((t) => t.spans.length > 0),
    next: ranked.length > window.limit && last ? encodeCursor(last.rank_time, last.trace_id) : undefined,
  };
}

/** Span focus: matching spans by start time (newest first unless ascending), keyset-paged. */
export async function querySpanPage(
  db: Executor,
  projectId: string,
  filtering: unknown,
  window: QueryWindow,
): Promise<SpanPage> {
  const params = new SqlParams();
  const where = await baseConditions(db, projectId, filtering, window, params);
  if (!where) return { spans: [] };
  const cmp = window.ascending ? ">" : "<";
  const dir = window.ascending ? "asc" : "desc";
  if (window.cursor) {
    where.push(
      `(start_time, trace_id, span_id) ${cmp} (${params.add(window.cursor.time, "::timestamptz")}, ${params.add(window.cursor.traceId, "::uuid")}, ${params.add(window.cursor.spanId ?? window.cursor.traceId, "::uuid")})`,
    );
  }
  const rows = await rawQuery<SpanRow>(
    db,
    `select ${SPAN_ROW_COLUMNS} from spans where ${where.join(" and ")}
     order by start_time ${dir}, trace_id ${dir}, span_id ${dir} limit ${params.add(window.limit + 1, "::int")}`,
    params.values,
  );
  const page = rows.slice(0, window.limit);
  const last = page.at(-1);
  return {
    spans: page,
    next: rows.length > window.limit && last ? encodeCursor(last.start_time, last.trace_id, last.span_id) : undefined,
  };
}
