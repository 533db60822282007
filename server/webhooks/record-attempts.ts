import { and, eq, inArray, sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import { logger } from "@/server/core/logger";
import { webhookAttempts, webhookSubscriptions } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { nextAttemptAt } from "./retry-schedule";
import type { AttemptResult } from "./send-attempt";
import type { SubscriptionRow } from "./subscriptions";
import type { DeliveryRow } from "./wire";

/**
 * `schedule`: a failure is retried per WEBHOOK_RETRY_SCHEDULE. `final`: the outcome is the
 * delivery's status (redelivery, test send), nothing is scheduled.
 */
export type AttemptMode = "schedule" | "final";

export interface FinishedAttempt {
  delivery: DeliveryRow;
  subscription: Pick<SubscriptionRow, "id" | "failingSince" | "isActive">;
  result: AttemptResult;
  trigger: "schedule" | "redeliver" | "test";
  mode: AttemptMode;
}

export function isSuccess(result: AttemptResult): boolean {
  return result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
}

function failureText(result: AttemptResult): string {
  return result.error ?? `endpoint answered ${result.statusCode}`;
}

// Every outcome of a batch in one statement: rows travel as one JSON array, so the statement
// text is the same whatever the batch size.
const updateDeliveries = (rows: string) => sql`
  update webhook_deliveries d set
    status = r.status, next_attempt_at = r.next_attempt_at, lease_until = null, lease_token = null,
    last_status_code = r.last_status_code, last_error = r.last_error, updated_at = r.updated_at
  from jsonb_to_recordset(${rows}::jsonb) as r(id uuid, lease_token uuid, status text, next_attempt_at timestamptz,
    last_status_code int, last_error text, updated_at timestamptz)
  where d.id = r.id and d.lease_token is not distinct from r.lease_token`;

/**
 * Writes a batch of attempts and what they mean for their deliveries and subscriptions, in one
 * transaction of two statements. A delivery is only changed while its lease token still
 * matches: a worker that lost its lease to a takeover records its attempt but no longer decides
 * the status.
 */
export async function recordAttempts(app: AppContext, finished: FinishedAttempt[], now = new Date()): Promise<void> {
  if (finished.length === 0) return;
  const outcomes = finished.map((f) => {
    const ok = isSuccess(f.result);
    const gone = f.result.statusCode === 410;
    const final = ok || gone || f.result.refused || f.mode === "final";
    const next = final ? undefined : nextAttemptAt(app.config.webhookRetryScheduleMs, f.delivery.attempts, now);
    return { ...f, ok, gone, next, status: ok ? "succeeded" : next ? "pending" : "failed" };
  });
  await app.db.transaction(async (tx) => {
    await tx
      .insert(webhookAttempts)
      .values(
        outcomes.map(({ delivery, result, trigger }) => attemptRow(delivery.id, delivery.attempts, trigger, result)),
      );
    const rows = outcomes.map((o) => ({
      id: o.delivery.id,
      lease_token: o.delivery.leaseToken,
      status: o.status,
      next_attempt_at: o.next?.toISOString() ?? null,
      last_status_code: o.result.statusCode ?? null,
      last_error: o.ok ? null : failureText(o.result),
      updated_at: now.toISOString(),
    }));
    await tx.execute(updateDeliveries(JSON.stringify(rows)));
  });
  await updateSubscriptions(app, outcomes, now);
}

/** A success clears a subscription's failing streak; 410 stops it; a long enough streak stops it. */
async function updateSubscriptions(
  app: AppContext,
  outcomes: (FinishedAttempt & { ok: boolean; gone: boolean })[],
  now: Date,
): Promise<void> {
  const s = webhookSubscriptions;
  const recovered = new Set(outcomes.filter((o) => o.ok && o.subscription.failingSince).map((o) => o.subscription.id));
  if (recovered.size > 0)
    await app.db
      .update(s)
      .set({ failingSince: null })
      .where(inArray(s.id, [...recovered]));
  for (const o of outcomes) {
    if (o.gone) await stop(app, o.subscription.id, `the endpoint answered 410 Gone at ${now.toISOString()}`);
  }
  const failing = new Set(
    outcomes.filter((o) => !o.ok && !o.gone && !recovered.has(o.subscription.id)).map((o) => o.subscription.id),
  );
  if (failing.size === 0) return;
  const rows = await app.db
    .update(s)
    .set({ failingSince: sql`coalesce(${s.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(inArray(s.id, [...failing]))
    .returning({ id: s.id, failingSince: s.failingSince, isActive: s.isActive });
  for (const row of rows) {
    if (
      row.isActive &&
      row.failingSince &&
      now.getTime() - row.failingSince.getTime() >= app.config.webhookDisableAfterMs
    ) {
      await stop(app, row.id, `every delivery has failed since ${row.failingSince.toISOString()}`);
    }
  }
}

async function stop(app: AppContext, subscriptionId: string, reason: string): Promise<void> {
  await app.db
    .update(webhookSubscriptions)
    .set({ isActive: false, stoppedReason: reason, updatedAt: new Date() })
    .where(and(eq(webhookSubscriptions.id, subscriptionId), eq(webhookSubscriptions.isActive, true)));
  logger.warn({ subscriptionId, reason }, "webhook subscription stopped");
}

/** The attempt log's row for one request and its outcome. */
export function attemptRow<T extends string>(deliveryId: string, number: number, trigger: T, result: AttemptResult) {
  return {
    id: newId(),
    deliveryId,
    number,
    trigger,
    requestHeaders: result.requestHeaders,
    statusCode: result.statusCode ?? null,
    responseBody: result.responseBody ?? null,
    error: result.error ?? null,
    durationMs: result.durationMs,
    startedAt: result.startedAt,
  };
}
