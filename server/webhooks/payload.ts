import { stableStringify } from "@/server/core/stable-json";
import { compact } from "@/server/core/compact";
import { resolvePayloadFields } from "./payload-fields";

export interface PayloadEvent {
  id: string;
  eventType: string;
  timestamp: Date;
  createdAt: Date;
  attributes: Record<string, unknown>;
}

export interface PayloadSubscription {
  id: string;
  name: string;
  tags: Record<string, unknown> | null;
  meta: Record<string, unknown> | null;
  payloadFields: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The delivery body, serialised once (sorted keys, no whitespace): these exact bytes are stored,
 * signed and sent, and a retry or redelivery sends them again.
 */
export function buildPayload(event: PayloadEvent, subscription: PayloadSubscription, projectId: string): string {
  const context = {
    event: {
      event_id: event.id,
      event_type: event.eventType,
      timestamp: event.timestamp.toISOString(),
      created_at: event.createdAt.toISOString(),
      attributes: event.attributes,
    },
    subscription: compact({
      id: subscription.id,
      name: subscription.name,
      tags: subscription.tags,
      meta: subscription.meta,
      created_at: subscription.createdAt.toISOString(),
      updated_at: subscription.updatedAt.toISOString(),
    }),
    scope: { project_id: projectId },
  };
  const body = subscription.payloadFields == null ? context : resolvePayloadFields(subscription.payloadFields, context);
  return stableStringify(body);
}
