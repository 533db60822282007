import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "@/server/db";
import { webhookDeliveries, webhookSubscriptions } from "@/server/db/schema";
import { claimEventsToFanOut } from "@/server/events";
import { DELIVERIES_CHANNEL } from "./channels";
import { TESTED_EVENT_TYPE } from "./contract";
import { deliveryIdFor } from "./delivery-id";
import { webhookTakers } from "./event-takers";
import { buildPayload } from "./payload";
import { redactForStorage } from "@/server/redaction";

export interface FanOutResult {
  events: number;
  deliveries: number;
}

/**
 * One fan-out pass: claims and marks up to `limit` outbox events, and creates one delivery per
 * matching active subscription, all in one transaction. A crash before the commit leaves the
 * events unclaimed for the next pass; deterministic delivery ids make a repeat harmless.
 */
export async function fanOutEvents(db: Database, limit = 500, now = new Date()): Promise<FanOutResult> {
  return db.transaction(async (tx) => {
    // Claimed and marked in one statement; only the events a subscription takes need more.
    const { claimed: count, taken: claimed } = await claimEventsToFanOut(tx, limit, now, webhookTakers);
    if (claimed.length === 0) return { events: count, deliveries: 0 };

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
    return { events: count, deliveries: created };
  });
}
