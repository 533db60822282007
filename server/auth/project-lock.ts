import { sql, type SQLWrapper } from "drizzle-orm";
import { projects } from "@/server/db/schema";

/**
 * Whether the project exists, its row locked `FOR KEY SHARE` until the transaction ends: the check
 * a foreign key to `projects` makes, for tables that keep that duty by hand (server/events: no
 * row of a project that does not exist, and a delete of the project waits for the writer). An SQL
 * condition; `projectId` is an SQL expression (a column of the caller's query, say `g.project_id`).
 */
export function projectExistsLockedSql(projectId: string): string {
  return `exists (select 1 from projects where id = ${projectId} for key share)`;
}

/** `projectExistsLockedSql` for a Drizzle query: `projectId` is any SQL value (a placeholder, say). */
export function projectExistsLocked(projectId: SQLWrapper) {
  return sql`exists (select 1 from ${projects} where ${projects.id} = ${projectId} for key share)`;
}
