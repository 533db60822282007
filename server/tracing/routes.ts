import { z } from "zod";
import { BadRequestError, SchemaValidationError } from "@/server/core/errors";
import { defineRoute, type RequestContext } from "@/server/http/route";
import { isObject } from "./attributes";
import { parseJsonBuffer, readRawBody } from "./http-body";
import { parseTraceId, spanIdToWire, traceIdToWire } from "./ids";
import { acceptSpans } from "./ingest/accept";
import { decodeOtlp, encodeOtlpResponse, otlpEncodingOf } from "./otlp/decode";
import { otlpToSpans } from "./otlp/to-spans";
import { parseTracingRequest, type ParsedSpans } from "./parse-request";
import { legacyDeleteTrace, legacyFetchTrace, legacyQuery } from "./legacy";
import { createSimpleTrace } from "./simple-traces";
import type { SpanRecord } from "./span-record";
import { fetchTrace, listTraces, queryTraces, querySpans } from "./traces";

const TAG = "tracing";

const tracingRequestDoc = z
  .object({
    spans: z.array(z.record(z.string(), z.unknown())).optional().describe("Flat list; parentage by parent_id"),
    traces: z.record(z.string(), z.unknown()).optional().describe("Tree: {trace_id: {spans: {span_name: node | [nodes]}}}"),
  })
  .describe("OTelTracingRequest");

const ingestResponse = z.object({
  count: z.number().int(),
  links: z.array(z.object({ trace_id: z.string(), span_id: z.string() })),
  dropped: z.array(z.object({ index: z.number().int().optional(), span_id: z.string().optional(), reason: z.string() })).optional(),
});

const queryBody = z.looseObject({
  filtering: z.unknown().optional(),
  windowing: z.unknown().optional(),
  formatting: z.object({ focus: z.enum(["trace", "span"]).optional(), format: z.enum(["agenta", "opentelemetry"]).optional() }).optional(),
});

type Ctx = RequestContext<"api_key">;

async function readTracingRequest(ctx: Ctx): Promise<ParsedSpans> {
  const body = parseJsonBuffer(await readRawBody(ctx.request, ctx.app.config.tracing.maxBodyBytes));
  if (body === undefined) return { spans: [], dropped: [] };
  if (!isObject(body)) throw new SchemaValidationError([{ path: "", message: "the body must be an OTelTracingRequest object with spans or traces" }]);
  if (body.spans !== undefined && body.spans !== null && !Array.isArray(body.spans)) throw new SchemaValidationError([{ path: "spans", message: "must be a list of spans" }]);
  if (body.spans === undefined && body.traces !== undefined && body.traces !== null && !isObject(body.traces)) {
    throw new SchemaValidationError([{ path: "traces", message: "must be a map of trace ids to {spans: {...}}" }]);
  }
  return parseTracingRequest(body);
}

async function accept(ctx: Ctx, parsed: ParsedSpans, replaceTraces?: string[]) {
  const accepted = await acceptSpans(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, parsed, { replaceTraces });
  return {
    count: accepted.spans.length,
    links: accepted.spans.map(linkOf),
    ...(accepted.dropped.length > 0 ? { dropped: accepted.dropped } : {}),
  };
}

function linkOf(span: SpanRecord) {
  return { trace_id: traceIdToWire(span.trace_id), span_id: spanIdToWire(span.span_id) };
}

function singleTrace(parsed: ParsedSpans, what: string): string {
  const ids = [...new Set(parsed.spans.map((s) => s.trace_id))];
  if (ids.length !== 1) {
    throw new BadRequestError(
      ids.length === 0
        ? `${what} needs the spans of exactly one trace; no span in the body parsed${parsed.dropped[0] ? ` (${parsed.dropped[0].reason})` : ""}`
        : `${what} takes the spans of exactly one trace; the body has ${ids.length} (${ids.map(traceIdToWire).join(", ")})`,
      "not_one_trace",
    );
  }
  return ids[0];
}

export const tracingRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/tracing/spans/ingest",
    auth: "api_key",
    tag: TAG,
    summary: "Ingest spans (any number of traces); 202 once they are durably queued",
    status: 202,
    rawBody: { contentTypes: ["application/json"], schema: tracingRequestDoc, description: "OTelTracingRequest; gzip or deflate with Content-Encoding" },
    response: ingestResponse,
    handler: async ({ ctx }) => accept(ctx, await readTracingRequest(ctx)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/tracing/traces/",
    auth: "api_key",
    tag: TAG,
    summary: "Deprecated: ingest the spans of exactly one trace",
    status: 202,
    rawBody: { contentTypes: ["application/json"], schema: tracingRequestDoc, description: "OTelTracingRequest holding one trace" },
    response: ingestResponse,
    handler: async ({ ctx }) => {
      const parsed = await readTracingRequest(ctx);
      singleTrace(parsed, "POST /tracing/traces/");
      return accept(ctx, parsed);
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/api/tracing/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Deprecated: replace the spans of one trace (re-ingest through the queue)",
    status: 202,
    rawBody: { contentTypes: ["application/json"], schema: tracingRequestDoc, description: "OTelTracingRequest holding exactly the trace of the path" },
    response: ingestResponse,
    handler: async ({ ctx, params }) => {
      const pathId = parseTraceId(params.trace_id);
      if (!pathId) throw new BadRequestError(`trace_id ${JSON.stringify(params.trace_id)} is not 32 hex digits or a UUID`, "invalid_trace_id");
      const parsed = await readTracingRequest(ctx);
      const payloadId = singleTrace(parsed, `PUT /tracing/traces/${params.trace_id}`);
      if (payloadId !== pathId) {
        throw new BadRequestError(`The path trace_id ${traceIdToWire(pathId)} differs from the payload's ${traceIdToWire(payloadId)}`, "trace_id_mismatch");
      }
      return accept(ctx, parsed, [pathId]);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/tracing/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Deprecated: fetch a trace as {count, traces: {<trace_id>: {spans}}}",
    handler: async ({ ctx, params }) => legacyFetchTrace(ctx.app.db, ctx.principal.projectId, params.trace_id),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/tracing/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Deprecated: delete a trace's spans (queued); 202 with the links of the spans removed",
    status: 202,
    handler: async ({ ctx, params }) => legacyDeleteTrace(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, params.trace_id),
  }),
  defineRoute({
    method: "POST",
    path: "/api/tracing/spans/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "Deprecated: query with flat keys (focus, oldest, newest, limit, rate, filter) in the body or query string",
    body: z.record(z.string(), z.unknown()),
    handler: async ({ ctx, body }) => legacyQuery(ctx.app.db, ctx.principal.projectId, body, new URL(ctx.request.url).searchParams),
  }),
  defineRoute({
    method: "POST",
    path: "/api/simple/traces/",
    auth: "api_key",
    tag: TAG,
    summary: "Create a one-span trace (an annotation, feedback, ...)",
    status: 202,
    body: z.object({
      trace: z.object({
        origin: z.enum(["human", "auto", "custom"]).optional(),
        kind: z.enum(["adhoc", "eval", "play"]).optional(),
        channel: z.enum(["otlp", "web", "sdk", "api"]).optional(),
        data: z.record(z.string(), z.unknown()),
        references: z.record(z.string(), z.object({ id: z.string().optional(), slug: z.string().optional(), version: z.union([z.string(), z.number()]).optional() })).optional(),
        links: z
          .union([
            z.record(z.string(), z.object({ trace_id: z.string(), span_id: z.string() })),
            z.array(z.object({ trace_id: z.string(), span_id: z.string(), attributes: z.record(z.string(), z.unknown()).optional() })),
          ])
          .optional(),
        tags: z.record(z.string(), z.unknown()).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
      }),
    }),
    handler: async ({ ctx, body }) => createSimpleTrace(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, body.trace),
  }),
  defineRoute({
    method: "GET",
    path: "/api/traces/{trace_id}",
    auth: "api_key",
    tag: TAG,
    summary: "Fetch a trace as a tree of spans ({count: 0} when unknown); emits traces.fetched",
    handler: async ({ ctx, params }) => fetchTrace(ctx.app.db, ctx.principal, params.trace_id),
  }),
  defineRoute({
    method: "GET",
    path: "/api/traces/",
    auth: "api_key",
    tag: TAG,
    summary: "List traces by id (?trace_id=a&trace_id=b or ?trace_ids=a,b), newest first; emits traces.fetched",
    handler: async ({ ctx }) => {
      const url = new URL(ctx.request.url);
      const ids = [...url.searchParams.getAll("trace_id"), ...url.searchParams.getAll("trace_ids").flatMap((v) => v.split(","))]
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
    summary: "Query traces (filtering, windowing), newest first, paged; emits traces.queried",
    body: queryBody,
    handler: async ({ ctx, body }) => queryTraces(ctx.app.db, ctx.principal, body),
  }),
  defineRoute({
    method: "POST",
    path: "/api/spans/query",
    auth: "api_key",
    role: "viewer",
    tag: TAG,
    summary: "Query spans (filtering, windowing), newest first, paged",
    body: queryBody,
    handler: async ({ ctx, body }) => querySpans(ctx.app.db, ctx.principal, body),
  }),
  defineRoute({
    method: "GET",
    path: "/api/otlp/v1/traces",
    auth: "none",
    tag: TAG,
    summary: "OTLP/HTTP traces endpoint status",
    handler: async () => ({ status: "ready" }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/otlp/v1/traces",
    auth: "api_key",
    tag: TAG,
    summary: "OTLP/HTTP trace export (protobuf or JSON, gzip); 200 once the spans are durably queued",
    rawBody: {
      contentTypes: ["application/x-protobuf", "application/json"],
      description: "ExportTraceServiceRequest; Content-Encoding gzip or deflate (also recognised by magic bytes)",
    },
    handler: async ({ ctx }) => {
      const encoding = otlpEncodingOf(ctx.request.headers.get("content-type"));
      const body = await readRawBody(ctx.request, ctx.app.config.tracing.maxBodyBytes);
      const parsed = otlpToSpans(decodeOtlp(body, encoding));
      const accepted = await acceptSpans(ctx.app.db, ctx.app.config.tracing, ctx.principal.projectId, parsed);
      const rejected = accepted.dropped.length;
      const message = rejected > 0 ? accepted.dropped.slice(0, 10).map((d) => `${d.span_id ?? `span ${d.index}`}: ${d.reason}`).join("; ") : "";
      const response = encodeOtlpResponse(encoding, rejected, message);
      return new Response(response.body as BodyInit, { status: 200, headers: { "content-type": response.contentType } });
    },
  }),
];
