import { z } from "zod";
import { compact } from "@/server/core/compact";
import { isoTimestampSchema, toIso } from "@/server/core/time";
import type { webhookAttempts, webhookDeliveries } from "@/server/db/schema";
import type { SubscriptionRow } from "./subscriptions";

/** A subscription on the wire; `secret` only in the responses that create or rotate it. */
export function subscriptionToWire(row: SubscriptionRow, secret?: string) {
  return compact({
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
    meta: row.meta,
    data: compact({
      url: row.url,
      event_types: row.eventTypes,
      headers: row.headers,
      auth_mode: row.authMode,
      payload_fields: row.payloadFields,
    }),
    flags: { is_active: row.isActive },
    stopped_reason: row.stoppedReason,
    failing_since: row.failingSince ? toIso(row.failingSince) : null,
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
    created_by_id: row.createdBy,
    secret,
  });
}

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export function deliveryToWire(row: DeliveryRow, attempts?: AttemptRow[]) {
  return compact({
    id: row.id,
    subscription_id: row.subscriptionId,
    event_id: row.eventId,
    event_type: row.eventType,
    url: row.url,
    status: row.status,
    attempt_count: row.attempts,
    next_attempt_at: row.status === "pending" && row.nextAttemptAt ? toIso(row.nextAttemptAt) : null,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
    payload: attempts ? row.payload : null,
    attempts: attempts?.map(attemptToWire),
  });
}

export function attemptToWire(row: AttemptRow) {
  return compact({
    number: row.number,
    trigger: row.trigger,
    started_at: toIso(row.startedAt),
    duration_ms: row.durationMs,
    request: { headers: row.requestHeaders },
    response: row.statusCode == null ? null : compact({ status_code: row.statusCode, body: row.responseBody }),
    error: row.error,
  });
}

// The schemas of the wire records above (the response contracts in OpenAPI).

export const subscriptionWire = z.strictObject({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().optional(),
  tags: z.record(z.string(), z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  data: z.strictObject({
    url: z.string(),
    event_types: z.array(z.string()).optional().describe("Absent: every event type"),
    headers: z.record(z.string(), z.string()).optional(),
    auth_mode: z.enum(["signature", "authorization"]),
    payload_fields: z.unknown().optional(),
  }),
  flags: z.strictObject({ is_active: z.boolean() }),
  stopped_reason: z.string().optional(),
  failing_since: isoTimestampSchema.optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
  created_by_id: z.string().uuid().optional(),
  secret: z.string().optional().describe("Only in the answers that create or rotate it"),
});

export const attemptWire = z.strictObject({
  number: z.number().int(),
  trigger: z.enum(["schedule", "redeliver", "test"]),
  started_at: isoTimestampSchema,
  duration_ms: z.number().int(),
  request: z.strictObject({ headers: z.record(z.string(), z.string()) }),
  response: z.strictObject({ status_code: z.number().int(), body: z.string().optional() }).optional(),
  error: z.string().optional(),
});

/** `payload` and `attempts` only when one delivery is read with its attempts. */
export const deliveryWire = z.strictObject({
  id: z.string().uuid(),
  subscription_id: z.string().uuid().optional(),
  event_id: z.string().uuid(),
  event_type: z.string(),
  url: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempt_count: z.number().int(),
  next_attempt_at: isoTimestampSchema.optional(),
  last_status_code: z.number().int().optional(),
  last_error: z.string().optional(),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
  payload: z.string().optional(),
  attempts: z.array(attemptWire).optional(),
});
