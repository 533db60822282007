import { and, eq, isNull, sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "@/server/db/schema";
import type { AppContext } from "@/server/http/app-context";
import { nextAttemptAt } from "./retry-schedule";
import type { AttemptResult } from "./send-attempt";
import type { DeliveryRow } from "./wire";

/**
 * `schedule`: a failure is retried per WEBHOOK_RETRY_SCHEDULE. `final`: the outcome is the
 * delivery's status (redelivery, test send), nothing is scheduled.
 */
export type AttemptMode = "schedule" | "final";

export function isSuccess(result: AttemptResult): boolean {
  return result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
}

function failureText(result: AttemptResult): string {
  return result.error ?? `endpoint answered ${result.statusCode}`;
}

/**
 * Writes an attempt and what it means for its delivery and subscription. The delivery is only
 * changed while this worker still holds its lease (`leaseToken`): a worker that lost it to a
 * takeover records its attempt but no longer decides the status.
 */
export async function recordAttempt(
  app: AppContext,
  delivery: DeliveryRow,
  result: AttemptResult,
  trigger: "schedule" | "redeliver" | "test",
  mode: AttemptMode,
  now = new Date(),
): Promise<void> {
  const ok = isSuccess(result);
  const gone = result.statusCode === 410;
  const next = ok || gone || result.refused || mode === "final" ? undefined : nextAttemptAt(app.config.webhookRetryScheduleMs, delivery.attempts, now);
  const status = ok ? "succeeded" : next ? "pending" : "failed";

  await app.db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: newId(),
      deliveryId: delivery.id,
      number: delivery.attempts,
      trigger,
      requestHeaders: result.requestHeaders,
      statusCode: result.statusCode ?? null,
      responseBody: result.responseBody ?? null,
      error: result.error ?? null,
      durationMs: result.durationMs,
      startedAt: result.startedAt,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        nextAttemptAt: next ?? null,
        leaseUntil: null,
        leaseToken: null,
        lastStatusCode: result.statusCode ?? null,
        lastError: ok ? null : failureText(result),
        updatedAt: now,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), delivery.leaseToken ? eq(webhookDeliveries.leaseToken, delivery.leaseToken) : isNull(webhookDeliveries.leaseToken)));
  });

  if (!delivery.subscriptionId) return;
  const s = webhookSubscriptions;
  if (ok) {
    await app.db.update(s).set({ failingSince: null }).where(and(eq(s.id, delivery.subscriptionId), sql`${s.failingSince} is not null`));
    return;
  }
  if (gone) {
    await stop(app, delivery.subscriptionId, `the endpoint answered 410 Gone at ${now.toISOString()}`);
    return;
  }
  const [row] = await app.db
    .update(s)
    .set({ failingSince: sql`coalesce(${s.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(s.id, delivery.subscriptionId))
    .returning({ failingSince: s.failingSince, isActive: s.isActive });
  if (row?.isActive && row.failingSince && now.getTime() - row.failingSince.getTime() >= app.config.webhookDisableAfterMs) {
    await stop(app, delivery.subscriptionId, `every delivery has failed since ${row.failingSince.toISOString()}`);
  }
}

async function stop(app: AppContext, subscriptionId: string, reason: string): Promise<void> {
  await app.db
    .update(webhookSubscriptions)
    .set({ isActive: false, stoppedReason: reason, updatedAt: new Date() })
    .where(eq(webhookSubscriptions.id, subscriptionId));
  logger.warn({ subscriptionId, reason }, "webhook subscription stopped");
}
