import { randomHex } from "@/server/core/ids";
import { BadRequestError, SchemaValidationError } from "@/server/core/errors";
import type { AppContext } from "@/server/core/app-context";
import { isObject } from "./attributes";
import { parseJsonBuffer, readRawBody } from "./http-body";
import { parseTraceId, spanIdToWire, storedTraceId, traceIdToWire } from "./ids";
import { acceptSpans } from "./ingest/accept";
import { decodeOtlp, encodeOtlpResponse, otlpEncodingOf } from "./otlp/decode";
import { otlpToSpans } from "./otlp/to-spans";
import { parseTracingRequest, type ParsedSpans } from "./parse-request";
import type { SpanRecord } from "./span-record";

/**
 * What an `OTelTracingRequest` body may carry: any spans (`ingest`), the spans of exactly one trace
 * (the deprecated create), or one trace that replaces the trace named in the path (the deprecated
 * replace; the ids must agree).
 */
export type TracingIngestMode = "ingest" | "one_trace" | { replace: string };

/**
 * The JSON ingest endpoints: read and parse the body, apply the mode's rule, queue durably (each
 * span stamped with the calling API key, null for the playground's session), answer with links.
 */
export async function ingestTracingRequest(
  app: AppContext,
  projectId: string,
  request: Request,
  mode: TracingIngestMode,
  apiKeyId: string | null,
) {
  const pathId = pathTraceId(mode);
  const parsed = await readTracingRequest(request, app.config.tracing.maxBodyBytes);
  return acceptTracingSpans(app, projectId, parsed, mode, pathId, apiKeyId, "/tracing/traces/");
}

/**
 * POST /traces/, PUT /traces/{id}: one trace `{trace: {trace_id, spans: {<name>: node}}}`, queued
 * as the deprecated create and replace queue theirs (acceptTracingSpans); answered with the trace
 * id. A create without `trace_id` gets one minted; a replace without one takes the path's.
 */
export async function ingestOneTrace(
  app: AppContext,
  projectId: string,
  request: Request,
  mode: "one_trace" | { replace: string },
  apiKeyId: string | null,
) {
  const pathId = pathTraceId(mode);
  const body = parseJsonBuffer(await readRawBody(request, app.config.tracing.maxBodyBytes));
  const trace = isObject(body) ? body.trace : undefined;
  if (!isObject(trace) || !isObject(trace.spans)) {
    throw new SchemaValidationError([
      { path: "trace", message: 'send {"trace": {"trace_id": "<32 hex>", "spans": {"<span name>": span}}}' },
    ]);
  }
  if (trace.trace_id !== undefined && trace.trace_id !== null && !parseTraceId(trace.trace_id)) {
    throw new BadRequestError(
      `trace.trace_id ${JSON.stringify(trace.trace_id)} is not 32 hex digits or a UUID`,
      "invalid_trace_id",
    );
  }
  const key =
    typeof trace.trace_id === "string" ? trace.trace_id : typeof mode === "object" ? mode.replace : randomHex(16);
  const parsed = parseTracingRequest({ traces: { [key]: { spans: trace.spans } } });
  const accepted = await acceptTracingSpans(app, projectId, parsed, mode, pathId, apiKeyId, "/traces/");
  return {
    count: 1,
    trace_id: accepted.links[0]?.trace_id ?? traceIdToWire(parseTraceId(key)!),
    ...(accepted.dropped ? { dropped: accepted.dropped } : {}),
  };
}

/** The mode's rule (one trace; the path's trace, `pathId`), then queued durably; answered with links. */
async function acceptTracingSpans(
  app: AppContext,
  projectId: string,
  parsed: ParsedSpans,
  mode: TracingIngestMode,
  pathId: string | undefined,
  apiKeyId: string | null,
  base: string,
) {
  if (mode === "one_trace") singleTrace(parsed, `POST ${base}`);
  if (typeof mode === "object") {
    const payloadId = singleTrace(parsed, `PUT ${base}${mode.replace}`);
    if (payloadId !== pathId) {
      throw new BadRequestError(
        `The path trace_id ${traceIdToWire(pathId!)} differs from the payload's ${traceIdToWire(payloadId)}`,
        "trace_id_mismatch",
      );
    }
  }
  const accepted = await acceptSpans(app.db, app.config.tracing, projectId, parsed, {
    replaceTraces: pathId ? [pathId] : undefined,
    apiKeyId,
  });
  return {
    count: accepted.spans.length,
    links: accepted.spans.map(linkOf),
    ...(accepted.dropped.length > 0 ? { dropped: accepted.dropped } : {}),
  };
}

/** The trace id of a replace's path (a 400 when malformed), before the body is read. */
const pathTraceId = (mode: TracingIngestMode) => (typeof mode === "object" ? storedTraceId(mode.replace) : undefined);

/** OTLP/HTTP: decode (protobuf or JSON), queue durably, answer in the request's encoding with `partial_success`. */
export async function ingestOtlpRequest(
  app: AppContext,
  projectId: string,
  request: Request,
  apiKeyId: string | null,
): Promise<{ body: Uint8Array | string; contentType: string }> {
  const encoding = otlpEncodingOf(request.headers.get("content-type"));
  const body = await readRawBody(request, app.config.tracing.maxBodyBytes);
  const parsed = otlpToSpans(decodeOtlp(body, encoding));
  const accepted = await acceptSpans(app.db, app.config.tracing, projectId, parsed, { apiKeyId });
  const rejected = accepted.dropped.length;
  const message =
    rejected > 0
      ? accepted.dropped
          .slice(0, 10)
          .map((d) => `${d.span_id ?? `span ${d.index}`}: ${d.reason}`)
          .join("; ")
      : "";
  return encodeOtlpResponse(encoding, rejected, message);
}

async function readTracingRequest(request: Request, limit: number): Promise<ParsedSpans> {
  const body = parseJsonBuffer(await readRawBody(request, limit));
  if (body === undefined) return { spans: [], dropped: [] };
  if (!isObject(body))
    throw new SchemaValidationError([
      { path: "", message: "the body must be an OTelTracingRequest object with spans or traces" },
    ]);
  if (body.spans !== undefined && body.spans !== null && !Array.isArray(body.spans))
    throw new SchemaValidationError([{ path: "spans", message: "must be a list of spans" }]);
  if (body.spans === undefined && body.traces !== undefined && body.traces !== null && !isObject(body.traces)) {
    throw new SchemaValidationError([{ path: "traces", message: "must be a map of trace ids to {spans: {...}}" }]);
  }
  return parseTracingRequest(body);
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
