import { rawQuery, type Executor } from "@/server/db";
import { pgArray } from "../query/sql-params";
import { SPAN_ROW_COLUMNS, type SpanRow } from "../wire";
import { traceRange } from "./span-bounds";

/**
 * Every span of the given traces, grouped per trace, in start order. Two statements: the traces'
 * time range (span-bounds.ts), then their spans within it, so the planner reads only the
 * partitions the range covers (a bound known when planning prunes before anything is opened).
 */
export async function loadTraces(db: Executor, projectId: string, traceIds: string[]): Promise<Map<string, SpanRow[]>> {
  const out = new Map<string, SpanRow[]>();
  if (traceIds.length === 0) return out;
  const range = await traceRange(db, projectId, traceIds);
  if (!range) return out;
  const rows = await rawQuery<SpanRow>(
    db,
    `select ${SPAN_ROW_COLUMNS} from spans where project_id = $1::uuid and trace_id = any($2::uuid[])
       and start_time >= $3::timestamptz and start_time <= $4::timestamptz order by start_time, span_id`,
    [projectId, pgArray(traceIds), range.from, range.to],
  );
  for (const row of rows) {
    const list = out.get(row.trace_id);
    if (list) list.push(row);
    else out.set(row.trace_id, [row]);
  }
  return out;
}

/** Trace ids ordered newest first by their latest span start (the order lists and queries use). */
export function newestFirst(traces: Map<string, SpanRow[]>): string[] {
  const latest = (rows: SpanRow[]) => rows.reduce((max, r) => (r.start_time > max ? r.start_time : max), "");
  return [...traces.keys()].sort((a, b) => {
    const x = latest(traces.get(a)!);
    const y = latest(traces.get(b)!);
    return x < y ? 1 : x > y ? -1 : a < b ? 1 : -1;
  });
}
