import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { refSchema } from "@/server/versioning";
import { idsParam } from "../span-reads";
import { fetchTrace, listTraces, queryTraces, querySpans } from "../traces";
import { spanWire, traceWire } from "../wire";
import { TAG } from "./ingest-routes";

/** The read doors: a trace by id, traces by ids, trace and span queries (emitting read events). */

const next = z.strictObject({ next: z.string() }).optional();

const ONLY_AGENTA_FORMAT = 'only "agenta" is served: spans come in this service\'s shape, not as OpenTelemetry';

const queryBody = z.looseObject({
  filtering: z.unknown().optional(),
  windowing: z.unknown().optional(),
  query_ref: refSchema.optional().describe("A saved query (queries artifact): its latest revision's filtering applies"),
  query_variant_ref: refSchema.optional().describe("A saved query's variant (its latest revision, or `version`)"),
  query_revision_ref: refSchema.optional().describe("A saved query's revision; a reference to nothing is a 404"),
  formatting: z
    .object({
      focus: z
        .enum(["trace", "span"])
        .optional()
        .describe(
          "The route decides the shape (traces/query answers traces, spans/query spans), as in the reference implementation",
        ),
      // The reference's `opentelemetry` format is not built: refused, never answered in ours.
      format: z.enum(["agenta"], { error: ONLY_AGENTA_FORMAT }).optional(),
    })
    .optional(),
});

export const readRoutes = [
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
    handler: async ({ ctx }) =>
      listTraces(ctx.app.db, ctx.principal, idsParam(new URL(ctx.request.url).searchParams, "trace_id")),
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
      "key_without_environment",
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
      "key_without_environment",
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
    handler: async ({ ctx, body }) => querySpans(ctx.app.db, ctx.principal, body),
  }),
];
