import { eq, inArray } from "drizzle-orm";
import { webhookDeliveries, webhookSubscriptions } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { claimDue } from "./claim-due";
import { webhookFetch } from "./webhook-fetch";
import { recordAttempts, type AttemptMode, type FinishedAttempt } from "./record-attempts";
import { sendAttempt } from "./send-attempt";
import type { SubscriptionRow } from "./subscriptions";
import type { DeliveryRow } from "./wire";
import { rememberSecret } from "@/server/core/secret-masking";

/** Claims due deliveries of active subscriptions, leased (the claim every delivery table shares: claim-due.ts). */
export function claimDueDeliveries(app: AppContext, limit: number, now = new Date()): Promise<DeliveryRow[]> {
  const subscriptions = webhookSubscriptions;
  return claimDue(app, webhookDeliveries, limit, {
    now,
    joined: {
      table: subscriptions,
      on: eq(subscriptions.id, webhookDeliveries.subscriptionId),
      where: eq(subscriptions.isActive, true),
    },
  });
}

export function outgoing(app: AppContext, delivery: DeliveryRow, subscription: SubscriptionRow) {
  const secret = app.secrets.open(subscription.sealedSecret);
  rememberSecret(secret);
  return {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    url: delivery.url,
    payload: delivery.payload,
    authMode: subscription.authMode,
    secret,
    userHeaders: subscription.headers,
  };
}

/** Sends one claimed delivery and records the outcome (redelivery, test sends). */
export async function attemptDelivery(
  app: AppContext,
  delivery: DeliveryRow,
  subscription: SubscriptionRow,
  trigger: "schedule" | "redeliver" | "test",
  mode: AttemptMode,
): Promise<void> {
  const result = await sendAttempt(
    webhookFetch(app),
    outgoing(app, delivery, subscription),
    app.config.webhookTimeoutMs,
  );
  await recordAttempts(app, [{ delivery, subscription, result, trigger, mode }]);
}

/**
 * Claims up to `limit` due deliveries and starts sending each: the one "claim then send" of the
 * batch pass below and the long-running pump. Each promise settles with the attempt to record
 * (sendAttempt never rejects); `claimed` counts deliveries whose subscription was deleted meanwhile
 * too (their deliveries went with it).
 */
export async function claimAndSend(
  app: AppContext,
  limit: number,
): Promise<{ claimed: number; sends: Promise<FinishedAttempt>[] }> {
  const claimed = await claimDueDeliveries(app, limit);
  if (claimed.length === 0) return { claimed: 0, sends: [] };
  const ids = [...new Set(claimed.map((c) => c.subscriptionId!))];
  const subscriptions = await app.db.select().from(webhookSubscriptions).where(inArray(webhookSubscriptions.id, ids));
  const byId = new Map(subscriptions.map((s) => [s.id, s]));
  const sends = claimed.flatMap((delivery) => {
    const subscription = byId.get(delivery.subscriptionId!);
    if (!subscription) return [];
    const sent = sendAttempt(webhookFetch(app), outgoing(app, delivery, subscription), app.config.webhookTimeoutMs);
    return [
      sent.then((result): FinishedAttempt => ({
        delivery,
        subscription,
        result,
        trigger: "schedule",
        mode: "schedule",
      })),
    ];
  });
  return { claimed: claimed.length, sends };
}

/**
 * One delivery pass: claims up to `limit` due deliveries, sends them concurrently and records
 * every outcome together (two statements per batch rather than per delivery).
 */
export async function deliverDue(app: AppContext, limit = 50): Promise<number> {
  const { claimed, sends } = await claimAndSend(app, limit);
  if (claimed > 0) await recordAttempts(app, await Promise.all(sends));
  return claimed;
}
