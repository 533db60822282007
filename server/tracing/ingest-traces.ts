import { randomHex } from "@/server/core/ids";
import { BadRequestError, SchemaValidationError } from "@/server/core/errors";
import type { AppContext } from "@/server/core/app-context";
import { isObject } from "./attributes";
import { parseJsonBuffer, readRawBody } from "./http-body";
import { traceIdToWire } from "./ids";
import { acceptSpans } from "./ingest/accept";
import { parseTracingRequest, type ParsedSpans } from "./parse-request";

/**
 * `POST /traces/ingest`: `{traces: [{trace_id?, spans: {name: node}}]}`, a batch of traces each in
 * the tree form of `POST /tracing/traces/`; queued durably, answered 202 with the trace ids. A trace
 * without `trace_id` gets one minted here (its spans' own ids win). An empty or missing list is a
 * 400, as in the reference implementation.
 */
export async function ingestTraceBatch(app: AppContext, projectId: string, request: Request, apiKeyId: string | null) {
  const body = parseJsonBuffer(await readRawBody(request, app.config.tracing.maxBodyBytes));
  const traces = isObject(body) ? body.traces : undefined;
  if (!Array.isArray(traces) || traces.length === 0) {
    throw new BadRequestError(
      'Send {"traces": [{"trace_id": "<32 hex>", "spans": {"<name>": {...}}}, ...]}: a non-empty list of traces',
      "no_traces",
    );
  }
  const parsed: ParsedSpans = { spans: [], dropped: [] };
  traces.forEach((trace, index) => {
    if (!isObject(trace) || !isObject(trace.spans)) {
      throw new SchemaValidationError([
        { path: `traces[${index}]`, message: "must be {trace_id?, spans: {<span name>: span | [spans]}}" },
      ]);
    }
    const traceId = typeof trace.trace_id === "string" && trace.trace_id ? trace.trace_id : randomHex(16);
    const one = parseTracingRequest({ traces: { [traceId]: { spans: trace.spans } } });
    parsed.spans.push(...one.spans);
    parsed.dropped.push(...one.dropped);
  });
  const accepted = await acceptSpans(app.db, app.config.tracing, projectId, parsed, { apiKeyId });
  const traceIds = [...new Set(accepted.spans.map((s) => traceIdToWire(s.trace_id)))];
  return {
    count: traceIds.length,
    trace_ids: traceIds,
    ...(accepted.dropped.length > 0 ? { dropped: accepted.dropped } : {}),
  };
}
