import { compact } from "@/server/core/compact";
import { toIso } from "@/server/core/time";
import type { webhookAttempts, webhookDeliveries } from "@/server/db/schema";
import type { SubscriptionRow } from "./subscriptions";

/** A subscription on the wire; `secret` only in the responses that create or rotate it. */
export function subscriptionToWire(row: SubscriptionRow, secret?: string) {
  return compact({
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
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
