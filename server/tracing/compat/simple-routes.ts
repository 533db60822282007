import { z } from "zod";
import { oneSchema, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { TAG } from "../routes/ingest-routes";
import {
  createSimpleTrace,
  deleteSimpleTrace,
  editSimpleTrace,
  getSimpleTrace,
  querySimpleTraces,
  simpleTraceWire,
} from "./simple-traces";

/**
 * The reference implementation's simple traces: one-span traces (annotations, feedback) written and
 * read as written.
 */

/** A span's link. */
export const link = z.strictObject({ trace_id: z.string(), span_id: z.string() });

const simpleRef = z.object({
  id: z.string().optional(),
  slug: z.string().optional(),
  version: z.union([z.string(), z.number()]).optional(),
});
const entityLink = z
  .object({ id: z.string().optional(), slug: z.string().optional() })
  .refine((l) => Boolean(l.id || l.slug), {
    message: "a link names a span (trace_id and span_id) or an entity (id or slug)",
  });
const simpleLinks = z.union([
  z.record(z.string(), z.union([z.object({ trace_id: z.string(), span_id: z.string() }), entityLink])),
  z.array(
    z.object({ trace_id: z.string(), span_id: z.string(), attributes: z.record(z.string(), z.unknown()).optional() }),
  ),
]);
const simpleTraceBody = z.object({
  trace: z.object({
    origin: z.enum(["human", "auto", "custom"]).optional(),
    kind: z.enum(["adhoc", "eval", "play"]).optional(),
    channel: z.enum(["otlp", "web", "sdk", "api"]).optional(),
    data: z.record(z.string(), z.unknown()),
    references: z.record(z.string(), simpleRef).optional(),
    links: simpleLinks.optional(),
    tags: z.record(z.string(), z.unknown()).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  }),
});

export const simpleTraceRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/simple/traces/",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    response: oneSchema("trace", simpleTraceWire),
    summary: "Create a one-span trace (an annotation, feedback, ...)",
    status: 202,
    body: simpleTraceBody,
    errors: ["ingest_backlog_full", "invalid_simple_trace"],
    handler: async ({ ctx, body }) =>
      createSimpleTrace(
        ctx.app.db,
        ctx.app.config.tracing,
        { projectId: ctx.principal.projectId, userId: ctx.principal.userId },
        body.trace,
      ),
  }),
  defineRoute({
    method: "POST",
    path: "/api/simple/traces/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary:
      "Query simple traces by origin, kind, channel, tags, meta, references (any of) and links (any of, spans or entities); top-level links read traces by their own ids; newest first",
    body: z.strictObject({
      trace: z
        .strictObject({
          origin: z.enum(["human", "auto", "custom"]).optional(),
          kind: z.enum(["adhoc", "eval", "play"]).optional(),
          channel: z.enum(["otlp", "web", "sdk", "api"]).optional(),
          tags: z.record(z.string(), z.unknown()).optional(),
          meta: z.record(z.string(), z.unknown()).optional(),
          references: z.union([z.record(z.string(), simpleRef), z.array(simpleRef)]).optional(),
          links: simpleLinks.optional(),
        })
        .optional(),
      links: z.array(z.object({ trace_id: z.string(), span_id: z.string() })).optional(),
      windowing: z.unknown().optional(),
    }),
    response: pageSchema("traces", simpleTraceWire),
    errors: ["invalid_filtering", "invalid_windowing"],
    handler: async ({ ctx, body }) => querySimpleTraces(ctx.app.db, ctx.principal.projectId, body),
  }),
  defineRoute({
    method: "GET",
    path: "/api/simple/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "A simple trace as written ({count: 0} when unknown)",
    response: z.union([oneSchema("trace", simpleTraceWire), z.strictObject({ count: z.literal(0) })]),
    errors: ["invalid_trace_id"],
    handler: async ({ ctx, params }) => getSimpleTrace(ctx.app.db, ctx.principal.projectId, params.trace_id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/api/simple/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Edit a simple trace: data is required; fields left out keep their value (re-ingested under the same ids)",
    body: simpleTraceBody,
    response: oneSchema("trace", simpleTraceWire),
    errors: ["ingest_backlog_full", "invalid_simple_trace", "invalid_trace_id", "not_found"],
    handler: async ({ ctx, params, body }) =>
      editSimpleTrace(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, params.trace_id, body.trace),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/simple/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Delete a simple trace (done before the answer); 200 with {count, link}, as the reference answers",
    response: z.union([z.strictObject({ count: z.number().int(), link }), z.strictObject({ count: z.literal(0) })]),
    errors: ["invalid_trace_id"],
    handler: async ({ ctx, params }) => deleteSimpleTrace(ctx.app.db, ctx.principal.projectId, params.trace_id),
  }),
];
