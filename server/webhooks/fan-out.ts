import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/server/db";
import { events, webhookDeliveries, webhookSubscriptions } from "@/server/db/schema";
import { DELIVERIES_CHANNEL } from "./channels";
import { TESTED_EVENT_TYPE } from "./contract";
import { deliveryIdFor } from "./delivery-id";
import { buildPayload } from "./payload";

export interface FanOutResult {
  events: number;
  deliveries: number;
}

/**
 * One fan-out pass: claims up to `limit` outbox events not yet fanned out (FOR UPDATE SKIP
 * LOCKED, so concurrent workers take disjoint events), creates one delivery per matching active
 * subscription, and marks the events, all in one transaction. A crash before the commit leaves
 * the events unclaimed for the next pass; deterministic delivery ids make a repeat harmless.
 */
export async function fanOutEvents(db: Database, limit = 500, now = new Date()): Promise<FanOutResult> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .select()
      .from(events)
      .where(isNull(events.fannedOutAt))
      .orderBy(events.id)
      .limit(limit)
      .for("update", { skipLocked: true });
    if (claimed.length === 0) return { events: 0, deliveries: 0 };

    const projectIds = [...new Set(claimed.map((e) => e.projectId))];
    const subscriptions = await tx
      .select()
      .from(webhookSubscriptions)
      .where(and(inArray(webhookSubscriptions.projectId, projectIds), eq(webhookSubscriptions.isActive, true)));

    const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const event of claimed) {
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
    await tx
      .update(events)
      .set({ fannedOutAt: now })
      .where(inArray(events.id, claimed.map((e) => e.id)));
    if (created > 0) await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
    return { events: claimed.length, deliveries: created };
  });
}
