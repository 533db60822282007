import { z } from "zod";
import type { ErrorCode } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { ingestOtlpRequest, ingestTracingRequest } from "../ingest-request";
import { ingestTraceBatch } from "../ingest-traces";

/** The ingest doors: JSON spans, the trace batch and OTLP/HTTP (each 202 or 200 once durably queued). */

/** What a traces request answers when its body cannot be queued (ingest-request.ts); also the deprecated ingest doors of compat/routes.ts. */
export const INGEST_ERRORS: ErrorCode[] = [
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

export const TAG = "tracing";

export const tracingRequestDoc = z
  .object({
    spans: z.array(z.record(z.string(), z.unknown())).optional().describe("Flat list; parentage by parent_id"),
    traces: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Tree: {trace_id: {spans: {span_name: node | [nodes]}}}"),
  })
  .describe("OTelTracingRequest");

export const ingestResponse = z.object({
  count: z.number().int(),
  links: z.array(z.object({ trace_id: z.string(), span_id: z.string() })),
  dropped: z
    .array(z.object({ index: z.number().int().optional(), span_id: z.string().optional(), reason: z.string() }))
    .optional(),
});

export const ingestRoutes = [
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
