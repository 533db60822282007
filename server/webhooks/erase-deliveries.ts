import { idFloorSql } from "@/server/core/ids";
import { ageBatch, rawQuery, type Executor } from "@/server/db";

/**
 * Erasing webhook deliveries (they carry their event's payload), for a deletion request and for
 * retention by age (server/retention calls these through this area's index.ts; the table is
 * this area's).
 */

/** Deletes the webhook deliveries of the events, in the caller's transaction. Returns the rows deleted. */
export async function eraseWebhookDeliveriesOf(tx: Executor, projectId: string, eventIds: string[]): Promise<number> {
  const [{ n }] = await rawQuery<{ n: number }>(
    tx,
    `with hit as (delete from webhook_deliveries where project_id = $1 and event_id = any($2::uuid[]) returning 1)
     select count(*)::int as n from hit`,
    [projectId, eventIds],
  );
  return n;
}

const ID_FLOOR = idFloorSql("$2");

/**
 * Retention by age: at most `limit` settled (not `pending`) webhook deliveries of the project
 * made before `before` (their UUIDv7 id), oldest first, skipping rows a writer holds (FOR UPDATE
 * SKIP LOCKED). Returns the count.
 */
export const deleteSettledWebhookDeliveriesBefore = ageBatch(
  `delete from webhook_deliveries where id in (
        select id from webhook_deliveries where project_id = $1 and id < ${ID_FLOOR} and status <> 'pending'
        order by id limit $3 for update skip locked)`,
);
