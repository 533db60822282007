export { SubscriptionView } from "./subscription-view";
export { WebhooksSection } from "./webhooks-section";
