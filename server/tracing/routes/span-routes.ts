import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { queryActorIds, type ActorKind } from "../actor-ids";
import { deleteTrace } from "../compat/legacy";
import { ingestOneTrace } from "../ingest-request";
import { fetchSpan, idsParam, listSpans } from "../span-reads";
import { spanWire } from "../wire";
import { INGEST_ERRORS, ingestResponse, TAG } from "./ingest-routes";

/** Spans by id, the session and user id lists, and one trace written, replaced or deleted. */

const actorBody = z.strictObject({
  realtime: z.boolean().optional().describe("Rank by latest activity in the window (default: earliest)"),
  windowing: z
    .unknown()
    .optional()
    .describe(
      "{oldest, newest, limit, order}; send back the `windowing` a full page returned for the next (its `next` keeps the window)",
    ),
});
const actorWindowing = z
  .strictObject({
    newest: z.string().optional(),
    oldest: z.string().optional(),
    limit: z.number().int(),
    order: z.enum(["ascending", "descending"]),
    next: z.string(),
  })
  .optional();

function actorRoute(kind: ActorKind, path: string, deprecated: boolean) {
  const key = kind === "session" ? "session_ids" : "user_ids";
  return defineRoute({
    method: "POST",
    path,
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    body: actorBody,
    response: z.strictObject({ count: z.number().int(), [key]: z.array(z.string()), windowing: actorWindowing }),
    summary: `${deprecated ? "Deprecated: " : ""}distinct ag.${kind}.id values of the project's spans, by activity in the window, paged`,
    errors: ["invalid_windowing", "validation_error"],
    handler: async ({ ctx, body }) => queryActorIds(ctx.app.db, ctx.principal.projectId, kind, body),
  });
}

const oneTraceBody = {
  contentTypes: ["application/json"],
  schema: z.object({
    trace: z.object({ trace_id: z.string().optional(), spans: z.record(z.string(), z.unknown()) }),
  }),
  description: "One trace in the tree form: {trace: {trace_id, spans: {<span name>: span}}}",
};
const traceIdResponse = z.strictObject({
  count: z.number().int(),
  trace_id: z.string(),
  dropped: ingestResponse.shape.dropped,
});

export const spanRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/spans/",
    auth: "api_key",
    tag: TAG,
    response: z.strictObject({ count: z.number().int(), spans: z.array(spanWire) }),
    summary: "Spans of the traces named (?trace_id=, repeated, or ?trace_ids=a,b), only the ?span_id= named if any",
    errors: ["invalid_trace_id", "invalid_value", "missing_trace_ids", "too_many_trace_ids"],
    handler: async ({ ctx }) => {
      const search = new URL(ctx.request.url).searchParams;
      return listSpans(ctx.app.db, ctx.principal.projectId, idsParam(search, "trace_id"), idsParam(search, "span_id"));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/spans/{trace_id}/{span_id}",
    auth: "api_key",
    tag: TAG,
    response: z.union([
      z.strictObject({ count: z.literal(1), span: spanWire }),
      z.strictObject({ count: z.literal(0) }),
    ]),
    summary: "Fetch a span ({count: 0} when unknown)",
    errors: ["invalid_trace_id", "invalid_value"],
    handler: async ({ ctx, params }) => fetchSpan(ctx.app.db, ctx.principal.projectId, params.trace_id, params.span_id),
  }),
  actorRoute("session", "/api/spans/sessions/query", false),
  actorRoute("user", "/api/spans/users/query", false),
  actorRoute("session", "/api/tracing/sessions/query", true),
  actorRoute("user", "/api/tracing/users/query", true),
  defineRoute({
    method: "POST",
    path: "/api/traces/",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    summary: "Create one trace; 202 with its trace_id once durably queued",
    status: 202,
    rawBody: oneTraceBody,
    response: traceIdResponse,
    errors: [...INGEST_ERRORS, "validation_error"],
    handler: async ({ ctx }) =>
      ingestOneTrace(ctx.app, ctx.principal.projectId, ctx.request, "one_trace", ctx.principal.apiKeyId ?? null),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/traces/{trace_id}",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    summary: "Replace one trace (its payload's trace_id must be the path's); 202 once durably queued",
    status: 202,
    rawBody: oneTraceBody,
    response: traceIdResponse,
    errors: [...INGEST_ERRORS, "validation_error"],
    handler: async ({ ctx, params }) =>
      ingestOneTrace(
        ctx.app,
        ctx.principal.projectId,
        ctx.request,
        { replace: params.trace_id },
        ctx.principal.apiKeyId ?? null,
      ),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Delete a trace (done before the answer); 202, count 0 when it had no spans",
    status: 202,
    response: z.strictObject({ count: z.number().int(), trace_id: z.string() }),
    errors: ["invalid_trace_id"],
    handler: async ({ ctx, params }) => deleteTrace(ctx.app.db, ctx.principal.projectId, params.trace_id),
  }),
];
