import { rawQuery, type Executor } from "@/server/db";
import { events } from "@/server/db/schema";
import type { EventTakers } from "./event-takers";

/** An outbox event as fan-out reads it. */
export type OutboxEvent = typeof events.$inferSelect;

/**
 * Claims up to $1 events not yet fanned out (FOR UPDATE SKIP LOCKED, so concurrent workers take
 * disjoint events) and marks them in one statement, saying of each whether anything takes it
 * (`takers`). Most events (reads, projects without webhooks) need nothing more, so the common pass
 * is this one statement in its transaction.
 */
const claimSql = (takers: EventTakers) => `
with claimed as (
  update events set fanned_out_at = $2::timestamptz
  where id in (select id from events where fanned_out_at is null order by id limit $1::int for update skip locked)
  returning id, project_id, event_type, "timestamp", created_at, attributes
)
select c.*, ${takers("c.project_id", "c.event_type")} as taken
from claimed c order by c.id`;

const statements = new WeakMap<EventTakers, string>();

interface ClaimedRow {
  id: string;
  project_id: string;
  event_type: string;
  timestamp: unknown;
  created_at: unknown;
  attributes: unknown;
  taken: boolean;
}

function toEvent(row: ClaimedRow, now: Date): OutboxEvent {
  return {
    id: row.id,
    projectId: row.project_id,
    eventType: row.event_type,
    timestamp: events.timestamp.mapFromDriverValue(row.timestamp as string) as Date,
    createdAt: events.createdAt.mapFromDriverValue(row.created_at as string) as Date,
    attributes: events.attributes.mapFromDriverValue(row.attributes) as Record<string, unknown>,
    fannedOutAt: now,
  };
}

/**
 * The fan-out's claim, in the caller's transaction: marks up to `limit` events fanned out at `now`
 * and returns how many it claimed and those of them `takers` takes (oldest first). A crash before
 * the caller's commit leaves them unclaimed for the next pass.
 */
export async function claimEventsToFanOut(
  tx: Executor,
  limit: number,
  now: Date,
  takers: EventTakers,
): Promise<{ claimed: number; taken: OutboxEvent[] }> {
  let text = statements.get(takers);
  if (!text) statements.set(takers, (text = claimSql(takers)));
  const rows = await rawQuery<ClaimedRow>(tx, text, [limit, now.toISOString()]);
  return { claimed: rows.length, taken: rows.filter((row) => row.taken).map((row) => toEvent(row, now)) };
}

/**
 * Whether a fan-out claim would find an event: one statement outside any transaction, for the
 * worker's idle poll. The parameter is there so postgres.js prepares it (rawQuery prepares only
 * statements with parameters).
 */
export async function anyEventToFanOut(db: Executor): Promise<boolean> {
  return (await rawQuery(db, "select 1 from events where fanned_out_at is null limit $1::int", [1])).length > 0;
}
