import { sql, type SQL } from "drizzle-orm";
import { spanDimensionsSql } from "./store/span-facts";

const revisionOfRoot = spanDimensionsSql("s").revision;

/**
 * An SQL condition for other areas' queries, which may not name `spans` themselves: the trace
 * `traceId` of project `projectId` (columns or values of the caller's query; the trace id as text
 * or uuid) is a run of `revisionId` that started at or after `since`: its root span names that
 * revision (its `workflow_revision` reference).
 */
export function traceOfRevisionSince(projectId: SQL, traceId: SQL, revisionId: string, since: Date): SQL {
  return sql`exists (
    select 1 from spans s
    where s.project_id = ${projectId} and s.trace_id = (${traceId})::uuid and s.parent_id is null
      and s.start_time >= ${since.toISOString()} and ${sql.raw(revisionOfRoot)} = ${revisionId}
  )`;
}
