import { idFloorSql } from "@/server/core/ids";
import { ageBatch, rawQuery, type Executor } from "@/server/db";

/**
 * Erasing events, for a deletion request and for retention by age (server/retention calls these
 * through this area's index.ts; the table is this area's).
 */

/**
 * Deletes the events naming one of the sessions, runs or traces (`session_id`, `run_id`,
 * `parent_run_id`, `continues_run_id`, `trace_id`, `trace_ids`: run ends, trace reads), in the
 * caller's transaction. Trace ids are stored (dashed) ids; events name them in their wire form.
 * Returns the ids deleted, so what carries their payloads (webhook deliveries) can go with them.
 */
export async function eraseEventsNaming(
  tx: Executor,
  projectId: string,
  named: { sessionIds: string[]; runIds: string[]; traceIds: string[] },
): Promise<string[]> {
  const wireTraceIds = named.traceIds.map((t) => t.replaceAll("-", ""));
  const rows = await rawQuery<{ id: string }>(
    tx,
    `delete from events where project_id = $1 and (
       attributes->>'session_id' = any($2::text[])
       or attributes->>'run_id' = any($3::text[]) or attributes->>'parent_run_id' = any($3::text[])
       or attributes->>'continues_run_id' = any($3::text[])
       or attributes->>'trace_id' = any($4::text[]) or coalesce(attributes->'trace_ids', '[]'::jsonb) ?| $4::text[])
     returning id`,
    [projectId, named.sessionIds, named.runIds, wireTraceIds],
  );
  return rows.map((r) => r.id);
}

const ID_FLOOR = idFloorSql("$2");

/**
 * Retention by age: at most `limit` events of the project minted before `before`, oldest first.
 * Ids are UUIDv7, so "older than" is an id range on the project's index. An event not yet fanned
 * out is kept (its webhooks are still owed). Skips rows a writer holds (FOR UPDATE SKIP LOCKED).
 * Returns the count.
 */
export const deleteFannedOutEventsBefore = ageBatch(
  `delete from events where id in (
        select id from events where project_id = $1 and id < ${ID_FLOOR} and fanned_out_at is not null
        order by id limit $3 for update skip locked)`,
);
