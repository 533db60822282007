import { z } from "zod";
import { isoTimestampSchema, toIso } from "@/server/core/time";
import { windowingSchema } from "@/server/core/windowing";
import { defineRoute } from "@/server/http/route";
import { pageBody, pageSchema } from "@/server/http/envelope";
import { EVENT_TYPES } from "@/shared/event-catalog";
import { queryEvents, type EventRecord } from "./query-events";

export function eventToWire(event: EventRecord) {
  return {
    event_id: event.id,
    event_type: event.eventType,
    timestamp: toIso(event.timestamp),
    created_at: toIso(event.createdAt),
    attributes: event.attributes,
    project_id: event.projectId,
  };
}

export const eventWire = z.strictObject({
  event_id: z.string().uuid(),
  event_type: z.string(),
  timestamp: isoTimestampSchema,
  created_at: isoTimestampSchema,
  attributes: z.record(z.string(), z.unknown()),
  project_id: z.string().uuid(),
});

const eventTypeSchema = z.string().refine((t) => EVENT_TYPES.includes(t), {
  message: "unknown event type; see the event catalog in the API documentation",
});

export const eventRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/events/query",
    auth: "api_key",
    role: "viewer",
    tag: "events",
    summary: "List the project's events, newest first (type filter, time window, paging)",
    body: z.strictObject({
      event_types: z.array(eventTypeSchema).max(100).optional(),
      event_type: eventTypeSchema.optional(),
      windowing: windowingSchema.optional(),
    }),
    response: pageSchema("events", eventWire),
    handler: async ({ ctx, body }) => {
      const types = [...(body.event_types ?? []), ...(body.event_type ? [body.event_type] : [])];
      const page = await queryEvents(ctx.app.db, ctx.principal.projectId, { types, windowing: body.windowing });
      return pageBody("events", page, eventToWire);
    },
  }),
];
