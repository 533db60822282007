import { rawQuery, type Executor } from "@/server/db";
import { loadTraces } from "../store/read-spans";
import { SPAN_ROW_COLUMNS, type SpanRow } from "../wire";
import { filteringToSql } from "./filtering";
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

function baseConditions(projectId: string, filtering: unknown, window: QueryWindow, params: SqlParams): string[] {
  const where = [`project_id = ${params.add(projectId, "::uuid")}`, `(${filteringToSql(filtering, params)})`];
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
  const where = baseConditions(projectId, filtering, window, params);
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
  const where = baseConditions(projectId, filtering, window, params);
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
