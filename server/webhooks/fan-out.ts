import { and, eq, inArray, sql } from "drizzle-orm";
import { rawQuery, type Database } from "@/server/db";
import { events, webhookDeliveries, webhookSubscriptions } from "@/server/db/schema";
import { DELIVERIES_CHANNEL } from "./channels";
import { TESTED_EVENT_TYPE } from "./contract";
import { deliveryIdFor } from "./delivery-id";
import { buildPayload } from "./payload";
import { redactForStorage } from "@/server/redaction";

export interface FanOutResult {
  events: number;
  deliveries: number;
}

type EventRow = typeof events.$inferSelect;

/**
 * Claims up to $1 events not yet fanned out (FOR UPDATE SKIP LOCKED, so concurrent workers take
 * disjoint events) and marks them in one statement, saying of each whether its project has an
 * active subscription. Most events (reads, projects without webhooks) need nothing more, so the
 * common pass is this one prepared statement in its transaction.
 */
const CLAIM_SQL = `
with claimed as (
  update events set fanned_out_at = $2::timestamptz
  where id in (select id from events where fanned_out_at is null order by id limit $1::int for update skip locked)
  returning id, project_id, event_type, "timestamp", created_at, attributes
)
select c.*, exists (select 1 from webhook_subscriptions s where s.project_id = c.project_id and s.is_active) as subscribed
from claimed c order by c.id`;

interface ClaimedRow {
  id: string;
  project_id: string;
  event_type: string;
  timestamp: unknown;
  created_at: unknown;
  attributes: unknown;
  subscribed: boolean;
}

function toEvent(row: ClaimedRow, now: Date): EventRow {
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
 * One fan-out pass: claims and marks up to `limit` outbox events, and creates one delivery per
 * matching active subscription, all in one transaction. A crash before the commit leaves the
 * events unclaimed for the next pass; deterministic delivery ids make a repeat harmless.
 */
export async function fanOutEvents(db: Database, limit = 500, now = new Date()): Promise<FanOutResult> {
  return db.transaction(async (tx) => {
    const claimedRows = await rawQuery<ClaimedRow>(tx, CLAIM_SQL, [limit, now.toISOString()]);
    const claimed = claimedRows.filter((row) => row.subscribed).map((row) => toEvent(row, now));
    if (claimed.length === 0) return { events: claimedRows.length, deliveries: 0 };

    const projectIds = [...new Set(claimed.map((e) => e.projectId))];
    const subscriptions = await tx
      .select()
      .from(webhookSubscriptions)
      .where(and(inArray(webhookSubscriptions.projectId, projectIds), eq(webhookSubscriptions.isActive, true)));

    const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const claimedEvent of claimed) {
      // Payloads are stored (and sent) as the project's redaction rules leave them.
      const event = {
        ...claimedEvent,
        attributes: await redactForStorage(tx, claimedEvent.projectId, claimedEvent.attributes),
      };
      // Test sends are delivered synchronously to their one subscription, never fanned out.
      if (event.eventType === TESTED_EVENT_TYPE) continue;
      for (const s of subscriptions) {
        if (s.projectId !== event.projectId) continue;
        if (s.eventTypes !== null && !s.eventTypes.includes(event.eventType)) continue;
        rows.push({
          id: deliveryIdFor(event.id, s.id),
          projectId: event.projectId,
          subscriptionId: s.id,
          eventId: event.id,
          eventType: event.eventType,
          url: s.url,
          payload: buildPayload(event, s, event.projectId),
          status: "pending",
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        });
      }
    }
    let created = 0;
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await tx
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id });
      created += inserted.length;
    }
    if (created > 0) await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
    return { events: claimedRows.length, deliveries: created };
  });
}
