export {
  WEBHOOK_HEADERS,
  WEBHOOK_USER_AGENT,
  TESTED_EVENT_TYPE,
  webhookPayloadSchema,
  type WebhookPayload,
} from "./contract";
export { claimDueDeliveries, deliverDue } from "./deliver";
export { getDelivery, queryDeliveries, redeliver } from "./deliveries";
export { deliveryIdFor } from "./delivery-id";
export { nextAttemptAt } from "./retry-schedule";
export { fanOutEvents } from "./fan-out";
export { generateWebhookSecret, signatureHeader } from "./signature";
export { createSubscription, getSubscription, querySubscriptions } from "./subscriptions";
export { webhookMutatingRoutes, webhookReadingRoutes, webhookRoutes } from "./routes";
export { startWebhookWorker, webhookWorker, type WebhookWorkerOptions } from "./worker";
export { webhookFetch } from "./webhook-fetch";
export { deliveryToWire, subscriptionToWire } from "./wire";
export { testDraftSubscription, testSavedSubscription } from "./test-send";
export { deleteSubscription, replaceSubscription, setSubscriptionActive } from "./subscriptions";
export { subscriptionInputSchema } from "./subscription-input";
export { deleteSettledWebhookDeliveriesBefore, eraseWebhookDeliveriesOf } from "./erase-deliveries";
export { webhookTakers } from "./event-takers";
export { startDeliveryPump, type DeliveryQueue } from "./delivery-pump";
export { sendAttempt, type AttemptResult, type OutgoingDelivery } from "./send-attempt";
export { isSuccess } from "./record-attempts";
export { claimDue, leaseMs } from "./claim-due";
