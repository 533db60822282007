import { z } from "zod";
import { oneSchema, pageSchema } from "@/server/http/envelope";
import type { ErrorCode } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { refSchema } from "@/server/versioning";
import { ingestOtlpRequest, ingestTracingRequest } from "./ingest-request";
import { legacyDeleteTrace, legacyFetchTrace, legacyQuery } from "./legacy";
import { ingestTraceBatch } from "./ingest-traces";
import {
  createSimpleTrace,
  deleteSimpleTrace,
  editSimpleTrace,
  getSimpleTrace,
  querySimpleTraces,
  simpleTraceWire,
} from "./simple-traces";
import { fetchTrace, listTraces, queryTraces, querySpans } from "./traces";
import { spanTreeWire, spanWire, traceWire } from "./wire";

/** What a traces request answers when its body cannot be queued (ingest-request.ts). */
const INGEST_ERRORS: ErrorCode[] = [
  "ingest_backlog_full",
  "invalid_encoding",
  "invalid_json",
  "invalid_trace_id",
  "not_one_trace",
  "payload_too_large",
  "too_deep",
  "trace_id_mismatch",
  "unsupported_media_type",
];

const TAG = "tracing";

const tracingRequestDoc = z
  .object({
    spans: z.array(z.record(z.string(), z.unknown())).optional().describe("Flat list; parentage by parent_id"),
    traces: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Tree: {trace_id: {spans: {span_name: node | [nodes]}}}"),
  })
  .describe("OTelTracingRequest");

const ingestResponse = z.object({
  count: z.number().int(),
  links: z.array(z.object({ trace_id: z.string(), span_id: z.string() })),
  dropped: z
    .array(z.object({ index: z.number().int().optional(), span_id: z.string().optional(), reason: z.string() }))
    .optional(),
});

const link = z.strictObject({ trace_id: z.string(), span_id: z.string() });
const next = z.strictObject({ next: z.string() }).optional();
/** The deprecated endpoints' trace map: `{<trace_id>: {spans}}`. */
const legacyTraces = z.record(z.string(), z.strictObject({ spans: spanTreeWire }));
const legacyFetchResponse = z.union([
  z.strictObject({ count: z.literal(1), traces: legacyTraces }),
  z.strictObject({ count: z.literal(0) }),
]);

const queryBody = z.looseObject({
  filtering: z.unknown().optional(),
  windowing: z.unknown().optional(),
  query_ref: refSchema.optional().describe("A saved query (queries artifact): its latest revision's filtering applies"),
  query_variant_ref: refSchema.optional().describe("A saved query's variant (its latest revision, or `version`)"),
  query_revision_ref: refSchema.optional().describe("A saved query's revision; a reference to nothing is a 404"),
  formatting: z
    .object({ focus: z.enum(["trace", "span"]).optional(), format: z.enum(["agenta", "opentelemetry"]).optional() })
    .optional(),
});

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

export const tracingRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/tracing/spans/ingest",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    summary: "Ingest spans (any number of traces); 202 once they are durably queued",
    status: 202,
    rawBody: {
      contentTypes: ["application/json"],
      schema: tracingRequestDoc,
      description: "OTelTracingRequest; gzip or deflate with Content-Encoding",
    },
    response: ingestResponse,
    errors: [...INGEST_ERRORS, "validation_error"],
    handler: async ({ ctx }) =>
      ingestTracingRequest(ctx.app, ctx.principal.projectId, ctx.request, "ingest", ctx.principal.apiKeyId ?? null),
  }),
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
    summary: "Deprecated: delete a trace's spans (queued); 202 with the links of the spans removed",
    status: 202,
    errors: ["ingest_backlog_full", "invalid_trace_id"],
    handler: async ({ ctx, params }) =>
      legacyDeleteTrace(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, params.trace_id),
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
      createSimpleTrace(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, body.trace),
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
    summary: "Delete a simple trace (queued); 200 with {count, link}, as the reference answers",
    response: z.union([z.strictObject({ count: z.number().int(), link }), z.strictObject({ count: z.literal(0) })]),
    errors: ["ingest_backlog_full", "invalid_trace_id"],
    handler: async ({ ctx, params }) =>
      deleteSimpleTrace(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, params.trace_id),
  }),
  defineRoute({
    method: "POST",
    path: "/api/traces/ingest",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    summary:
      "Ingest a batch of traces, each {trace_id?, spans: {name: node}}; 202 with their trace_ids once durably queued",
    status: 202,
    rawBody: {
      contentTypes: ["application/json"],
      schema: z.object({
        traces: z.array(z.object({ trace_id: z.string().optional(), spans: z.record(z.string(), z.unknown()) })),
      }),
      description: "A non-empty list of traces in the tree form",
    },
    response: z.object({
      count: z.number().int(),
      trace_ids: z.array(z.string()),
      dropped: ingestResponse.shape.dropped,
    }),
    errors: [
      "ingest_backlog_full",
      "invalid_encoding",
      "invalid_json",
      "no_traces",
      "payload_too_large",
      "too_deep",
      "unsupported_media_type",
      "validation_error",
    ],
    handler: async ({ ctx }) =>
      ingestTraceBatch(ctx.app, ctx.principal.projectId, ctx.request, ctx.principal.apiKeyId ?? null),
  }),
  defineRoute({
    method: "GET",
    path: "/api/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    response: z.union([
      z.strictObject({ count: z.literal(1), trace: traceWire }),
      z.strictObject({ count: z.literal(0) }),
    ]),
    summary: "Fetch a trace as a tree of spans ({count: 0} when unknown); emits traces.fetched",
    errors: ["invalid_trace_id", "method_not_allowed"],
    handler: async ({ ctx, params }) => fetchTrace(ctx.app.db, ctx.principal, params.trace_id),
  }),
  defineRoute({
    method: "GET",
    path: "/api/traces/",
    auth: "api_key",
    tag: TAG,
    response: z.strictObject({ count: z.number().int(), traces: z.array(traceWire) }),
    summary: "List traces by id (?trace_id=a&trace_id=b or ?trace_ids=a,b), newest first; emits traces.fetched",
    errors: ["invalid_trace_id", "missing_trace_ids", "too_many_trace_ids"],
    handler: async ({ ctx }) => {
      const url = new URL(ctx.request.url);
      const ids = [
        ...url.searchParams.getAll("trace_id"),
        ...url.searchParams.getAll("trace_ids").flatMap((v) => v.split(",")),
      ]
        .map((v) => v.trim())
        .filter((v) => v !== "");
      return listTraces(ctx.app.db, ctx.principal, ids);
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/traces/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    response: z.strictObject({ count: z.number().int(), traces: z.array(traceWire), windowing: next }),
    summary: "Query traces (filtering, windowing), newest first, paged; emits traces.queried",
    body: queryBody,
    errors: [
      "ambiguous_reference",
      "environment_key_mismatch",
      "focus_conflict",
      "invalid_filtering",
      "invalid_query",
      "invalid_windowing",
      "missing_reference",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "version_without_context",
    ],
    handler: async ({ ctx, body }) => queryTraces(ctx.app.db, ctx.principal, body),
  }),
  defineRoute({
    method: "POST",
    path: "/api/spans/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    response: z.strictObject({ count: z.number().int(), spans: z.array(spanWire), windowing: next }),
    summary: "Query spans (filtering, windowing), newest first, paged",
    body: queryBody,
    errors: [
      "ambiguous_reference",
      "environment_key_mismatch",
      "focus_conflict",
      "invalid_query",
      "invalid_windowing",
      "missing_reference",
      "no_variant",
      "not_found",
      "reference_mismatch",
      "version_without_context",
    ],
    handler: async ({ ctx, body }) => querySpans(ctx.app.db, ctx.principal, body),
  }),
  defineRoute({
    method: "GET",
    path: "/api/otlp/v1/traces",
    auth: "none",
    tag: TAG,
    response: z.strictObject({ status: z.literal("ready") }),
    summary: "OTLP/HTTP traces endpoint status",
    handler: async () => ({ status: "ready" }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/otlp/v1/traces",
    auth: "api_key",
    keyScope: "ingest",
    tag: TAG,
    response: z
      .strictObject({
        partialSuccess: z.strictObject({ rejectedSpans: z.string(), errorMessage: z.string() }).optional(),
      })
      .describe(
        "ExportTraceServiceResponse in the request's encoding: this JSON form, or protobuf for a protobuf request",
      ),
    summary: "OTLP/HTTP trace export (protobuf or JSON, gzip); 200 once the spans are durably queued",
    rawBody: {
      contentTypes: ["application/x-protobuf", "application/json"],
      description: "ExportTraceServiceRequest; Content-Encoding gzip or deflate (also recognised by magic bytes)",
    },
    errors: [
      "ingest_backlog_full",
      "invalid_encoding",
      "invalid_otlp",
      "payload_too_large",
      "too_deep",
      "unsupported_media_type",
    ],
    handler: async ({ ctx }) => {
      const response = await ingestOtlpRequest(
        ctx.app,
        ctx.principal.projectId,
        ctx.request,
        ctx.principal.apiKeyId ?? null,
      );
      return new Response(response.body as BodyInit, {
        status: 200,
        headers: { "content-type": response.contentType },
      });
    },
  }),
];
