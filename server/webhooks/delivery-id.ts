import { createHash } from "node:crypto";

/**
 * The delivery of one event to one subscription always has the same id: fan-out that runs twice
 * for an event (a crash between insert and commit, two workers) cannot make a second delivery.
 * It is UUIDv7-shaped, with the event id's timestamp, so deliveries sort like their events.
 */
export function deliveryIdFor(eventId: string, subscriptionId: string): string {
  const hash = createHash("sha256").update(`webhooks.delivery:${eventId}:${subscriptionId}`).digest("hex");
  const time = eventId.replace(/-/g, "").slice(0, 12);
  const variant = ((parseInt(hash[15], 16) & 0x3) | 0x8).toString(16);
  const hex = `${time}7${hash.slice(0, 3)}${variant}${hash.slice(3, 18)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export const DRAFT_SUBSCRIPTION_ID = "00000000-0000-0000-0000-000000000000";
