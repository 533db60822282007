import { z } from "zod";

/** the interface contract "Webhook delivery": the headers every delivery carries. */
export const WEBHOOK_HEADERS = {
  eventType: "X-Service-Event-Type",
  deliveryId: "X-Service-Delivery-Id",
  eventId: "X-Service-Event-Id",
  signature: "X-Service-Signature",
  idempotencyKey: "Idempotency-Key",
} as const;

export const WEBHOOK_USER_AGENT = "Service-Webhook/1.0";

export const TESTED_EVENT_TYPE = "webhooks.subscriptions.tested";

/**
 * Header names a subscription's own `headers` may not set: they carry the delivery's identity,
 * its proof of origin, or belong to HTTP framing.
 */
export function isProtectedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return (
    n.startsWith("x-service-") ||
    [
      "content-type",
      "content-length",
      "host",
      "user-agent",
      "idempotency-key",
      "authorization",
      "connection",
      "transfer-encoding",
      "te",
      "upgrade",
      "expect",
    ].includes(n)
  );
}

/** The body of a delivery (without payload_fields), as receivers parse it. */
export const webhookPayloadSchema = z.object({
  event: z.object({
    event_id: z.string().uuid(),
    event_type: z.string(),
    timestamp: z.iso.datetime(),
    created_at: z.iso.datetime(),
    attributes: z.record(z.string(), z.unknown()),
  }),
  subscription: z
    .object({
      id: z.string().uuid(),
      name: z.string(),
      tags: z.record(z.string(), z.unknown()).optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough(),
  scope: z.object({ project_id: z.string().uuid() }),
});

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
