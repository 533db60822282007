import type { EventTakers } from "@/server/events";

/**
 * Whether an active subscription of the project takes the event type (`event_types` null, JSON
 * null or holding it): the condition the outbox decides fan-out by (server/events/event-takers.ts).
 * The composition root hands it to the outbox; fan-out passes it to its claim.
 */
export const webhookTakers: EventTakers = (projectId, eventType) => `exists (
  select 1 from webhook_subscriptions s
  where s.project_id = ${projectId} and s.is_active
    and (s.event_types is null or jsonb_typeof(s.event_types) = 'null' or s.event_types @> to_jsonb(${eventType})))`;
