import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { INGEST_ERRORS, ingestResponse, TAG, tracingRequestDoc } from "../routes/ingest-routes";
import { ingestTracingRequest } from "../ingest-request";
import { spanTreeWire, spanWire } from "../wire";
import { legacyDeleteTrace, legacyFetchTrace, legacyQuery } from "./legacy";
import { link, simpleTraceRoutes } from "./simple-routes";

/**
 * The compat doors: the reference implementation's deprecated `/api/tracing/...` routes (here) and
 * its simple traces (simple-routes.ts).
 */

/** The deprecated endpoints' trace map: `{<trace_id>: {spans}}`. */
const legacyTraces = z.record(z.string(), z.strictObject({ spans: spanTreeWire }));
const legacyFetchResponse = z.union([
  z.strictObject({ count: z.literal(1), traces: legacyTraces }),
  z.strictObject({ count: z.literal(0) }),
]);

const deprecatedRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/tracing/traces/",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    summary: "Deprecated: ingest the spans of exactly one trace",
    status: 202,
    rawBody: {
      contentTypes: ["application/json"],
      schema: tracingRequestDoc,
      description: "OTelTracingRequest holding one trace",
    },
    response: ingestResponse,
    errors: INGEST_ERRORS,
    handler: async ({ ctx }) =>
      ingestTracingRequest(ctx.app, ctx.principal.projectId, ctx.request, "one_trace", ctx.principal.apiKeyId ?? null),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/tracing/traces/{trace_id}",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    summary: "Deprecated: replace the spans of one trace (re-ingest through the queue)",
    status: 202,
    rawBody: {
      contentTypes: ["application/json"],
      schema: tracingRequestDoc,
      description: "OTelTracingRequest holding exactly the trace of the path",
    },
    response: ingestResponse,
    errors: INGEST_ERRORS,
    handler: async ({ ctx, params }) =>
      ingestTracingRequest(
        ctx.app,
        ctx.principal.projectId,
        ctx.request,
        { replace: params.trace_id },
        ctx.principal.apiKeyId ?? null,
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/api/tracing/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    response: legacyFetchResponse,
    summary: "Deprecated: fetch a trace as {count, traces: {<trace_id>: {spans}}}",
    errors: ["invalid_trace_id"],
    handler: async ({ ctx, params }) => legacyFetchTrace(ctx.app.db, ctx.principal.projectId, params.trace_id),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/tracing/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    response: z.strictObject({ count: z.number().int(), links: z.array(link) }),
    summary: "Deprecated: delete a trace's spans (done before the answer); 202 with the links of the spans removed",
    status: 202,
    errors: ["invalid_trace_id"],
    handler: async ({ ctx, params }) => legacyDeleteTrace(ctx.app.db, ctx.principal.projectId, params.trace_id),
  }),
  defineRoute({
    method: "POST",
    path: "/api/tracing/spans/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    response: z.union([
      z.strictObject({ count: z.number().int(), spans: z.array(spanWire) }),
      z.strictObject({ count: z.number().int(), traces: legacyTraces }),
    ]),
    summary:
      "Deprecated: query with flat keys (focus, oldest, newest, limit, rate, filter) in the body or query string",
    body: z.record(z.string(), z.unknown()),
    errors: ["invalid_filtering", "invalid_formatting", "invalid_windowing"],
    handler: async ({ ctx, body }) =>
      legacyQuery(ctx.app.db, ctx.principal.projectId, body, new URL(ctx.request.url).searchParams),
  }),
];

export const compatRoutes = [...deprecatedRoutes, ...simpleTraceRoutes];
