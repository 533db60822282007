import { newId } from "@/server/core/ids";
import { webhookDeliveries } from "@/server/db/schema";
import type { AppContext } from "@/server/core/app-context";
import { TESTED_EVENT_TYPE } from "./contract";
import { attemptDelivery } from "./deliver";
import { getDelivery } from "./deliveries";
import { DRAFT_SUBSCRIPTION_ID, deliveryIdFor } from "./delivery-id";
import { webhookFetch } from "./webhook-fetch";
import { buildPayload } from "./payload";
import { attemptRow, isSuccess } from "./record-attempts";
import { sendAttempt } from "./send-attempt";
import { generateWebhookSecret } from "./signature";
import { checkSubscriptionInput, getSubscription, type Scope } from "./subscriptions";
import type { SubscriptionInput } from "./subscription-input";

function testedEvent(subscriptionId: string, userId: string) {
  const now = new Date();
  return {
    id: newId(),
    eventType: TESTED_EVENT_TYPE,
    timestamp: now,
    createdAt: now,
    attributes: { subscription_id: subscriptionId, user_id: userId },
  };
}

/**
 * Sends a `webhooks.subscriptions.tested` event to one saved subscription now (even a stopped
 * one) and keeps the delivery and its attempt in the log. Bypasses the outbox: the answer is the
 * delivery.
 */
export async function testSavedSubscription(app: AppContext, scope: Scope, subscriptionId: string) {
  const subscription = await getSubscription(app.db, scope.projectId, subscriptionId);
  const event = testedEvent(subscription.id, scope.userId);
  const now = event.createdAt;
  const [delivery] = await app.db
    .insert(webhookDeliveries)
    .values({
      id: deliveryIdFor(event.id, subscription.id),
      projectId: scope.projectId,
      subscriptionId: subscription.id,
      eventId: event.id,
      eventType: event.eventType,
      url: subscription.url,
      payload: buildPayload(event, subscription, scope.projectId),
      status: "pending",
      attempts: 1,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await attemptDelivery(app, delivery, subscription, "test", "final");
  return getDelivery(app.db, scope.projectId, delivery.id);
}

/** Sends the test event to a draft (not saved): nothing is stored; the result says what happened. */
export async function testDraftSubscription(
  app: AppContext,
  scope: Scope,
  input: SubscriptionInput,
  givenSecret?: string,
) {
  const secret = givenSecret ?? input.secret;
  checkSubscriptionInput(app, input, secret);
  const event = testedEvent("draft", scope.userId);
  const now = event.createdAt;
  const draft = {
    id: DRAFT_SUBSCRIPTION_ID,
    name: input.name,
    tags: input.tags ?? null,
    meta: input.meta ?? null,
    payloadFields: input.data.payload_fields ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const id = deliveryIdFor(event.id, DRAFT_SUBSCRIPTION_ID);
  const url = new URL(input.data.url).toString();
  const payload = buildPayload(event, draft, scope.projectId);
  const result = await sendAttempt(
    webhookFetch(app),
    {
      deliveryId: id,
      eventId: event.id,
      eventType: event.eventType,
      url,
      payload,
      authMode: input.data.auth_mode,
      secret: secret ?? generateWebhookSecret(),
      userHeaders: input.data.headers ?? null,
    },
    app.config.webhookTimeoutMs,
  );
  const ok = isSuccess(result);
  const delivery = {
    id,
    projectId: scope.projectId,
    subscriptionId: DRAFT_SUBSCRIPTION_ID,
    eventId: event.id,
    eventType: event.eventType,
    url,
    payload,
    status: ok ? ("succeeded" as const) : ("failed" as const),
    attempts: 1,
    nextAttemptAt: null,
    leaseUntil: null,
    leaseToken: null,
    lastStatusCode: result.statusCode ?? null,
    lastError: ok ? null : (result.error ?? `endpoint answered ${result.statusCode}`),
    createdAt: now,
    updatedAt: new Date(),
  };
  const attempt = attemptRow(id, 1, "test" as const, result);
  return { delivery, attempts: [attempt] };
}
