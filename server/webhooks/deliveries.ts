import { and, asc, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { toPage, type Page } from "@/server/core/windowing";
import type { Database } from "@/server/db";
import { webhookAttempts, webhookDeliveries } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { leaseMs } from "./claim-due";
import { attemptDelivery } from "./deliver";
import { getSubscription } from "./subscriptions";
import type { AttemptRow, DeliveryRow } from "./wire";

export interface DeliveryFilter {
  status?: "pending" | "succeeded" | "failed";
  subscriptionId?: string;
  eventId?: string;
  eventType?: string;
}

/** Newest first (ids follow their events' time), paged by the last id. */
export async function queryDeliveries(
  db: Database,
  projectId: string,
  filter: DeliveryFilter = {},
  windowing: { limit?: number; next?: string } = {},
): Promise<Page<DeliveryRow>> {
  const d = webhookDeliveries;
  const limit = windowing.limit ?? 100;
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        eq(d.projectId, projectId),
        filter.status ? eq(d.status, filter.status) : undefined,
        filter.subscriptionId ? eq(d.subscriptionId, filter.subscriptionId) : undefined,
        filter.eventId ? eq(d.eventId, filter.eventId) : undefined,
        filter.eventType ? eq(d.eventType, filter.eventType) : undefined,
        windowing.next ? lt(d.id, windowing.next) : undefined,
      ),
    )
    .orderBy(desc(d.id))
    .limit(limit + 1);
  return toPage(rows, limit);
}

export async function getDelivery(
  db: Database,
  projectId: string,
  id: string,
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.id, id)));
  if (!delivery) throw new NotFoundError(`Webhook delivery ${id} not found`, "delivery_not_found");
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, id))
    .orderBy(asc(webhookAttempts.number));
  return { delivery, attempts };
}

/**
 * Sends a delivery again now, whatever its status: the same body, delivery id and idempotency
 * key, a new timestamp and signature. Its outcome becomes the delivery's status; a delivery a
 * worker is sending right now is a 409.
 */
export async function redeliver(app: AppContext, projectId: string, id: string) {
  const now = new Date();
  const d = webhookDeliveries;
  const [claimed] = await app.db
    .update(d)
    .set({
      leaseUntil: new Date(now.getTime() + leaseMs(app)),
      leaseToken: newId(),
      attempts: sql`${d.attempts} + 1`,
      updatedAt: now,
    })
    .where(and(eq(d.projectId, projectId), eq(d.id, id), or(isNull(d.leaseUntil), lt(d.leaseUntil, now))))
    .returning();
  if (!claimed) {
    await getDelivery(app.db, projectId, id);
    throw new ConflictError(
      `Webhook delivery ${id} is being sent right now; try again when the attempt is recorded`,
      "delivery_in_flight",
    );
  }
  const subscription = await getSubscription(app.db, projectId, claimed.subscriptionId!);
  await attemptDelivery(app, claimed, subscription, "redeliver", "final");
  return getDelivery(app.db, projectId, id);
}
