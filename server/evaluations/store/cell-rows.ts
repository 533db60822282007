import { and, eq, inArray, type SQL } from "drizzle-orm";
import { jsonContains } from "@/server/core/json-contains";
import type { Executor } from "@/server/db";
import type { evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { oneOrMany } from "./entity-filters";
import { openRunForWrite } from "./run-store";

/** The rows of a run's grid that share their filters and their delete: scenarios and results. */
type CellTable = typeof evaluationScenarios | typeof evaluationResults;

/** The filters scenarios and results share (each adds its own). */
export interface CellFilter {
  ids?: string[] | null;
  run_id?: string | null;
  run_ids?: string[] | null;
  status?: string | null;
  statuses?: string[] | null;
  interval?: number | null;
  intervals?: number[] | null;
  /** ISO instants: a live run's time buckets. */
  timestamp?: string | null;
  timestamps?: string[] | null;
  tags?: Record<string, unknown> | null;
  flags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

/** The project's rows matching the shared filters: ids, run(s), status(es), interval(s), timestamp(s), tags, flags, meta. */
export function cellConditions(t: CellTable, projectId: string, filter: CellFilter): (SQL | undefined)[] {
  return [
    eq(t.projectId, projectId),
    oneOrMany(t.id, undefined, filter.ids),
    oneOrMany(t.runId, filter.run_id, filter.run_ids),
    oneOrMany(t.status, filter.status, filter.statuses),
    oneOrMany(t.interval, filter.interval, filter.intervals),
    oneOrMany(
      t.timestamp,
      toDate(filter.timestamp),
      filter.timestamps?.map((at) => new Date(at)),
    ),
    jsonContains(t.tags, filter.tags),
    jsonContains(t.flags, filter.flags),
    jsonContains(t.meta, filter.meta),
  ];
}

function toDate(at: string | null | undefined): Date | null | undefined {
  return at ? new Date(at) : (at as null | undefined);
}

/** Deletes the project's rows with these ids; a closed run among theirs refuses the whole delete (409). */
export async function deleteCellRows(db: Executor, t: CellTable, projectId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const table = t as typeof evaluationScenarios;
  const ofProject = and(eq(table.projectId, projectId), inArray(table.id, ids));
  const rows = await db.select({ runId: table.runId }).from(table).where(ofProject);
  for (const runId of new Set(rows.map((row) => row.runId))) await openRunForWrite(db, projectId, runId);
  const deleted = await db.delete(table).where(ofProject).returning({ id: table.id });
  return deleted.map((row) => row.id);
}
