import { randomBytes } from "node:crypto";
import type { TracingConfig } from "@/server/core/config";
import type { Database } from "@/server/db";
import { isObject } from "./attributes";
import { acceptSpans } from "./ingest/accept";
import { parseTracingRequest } from "./parse-request";
import { BadRequestError } from "@/server/core/errors";

export interface SimpleTraceInput {
  origin?: "human" | "auto" | "custom";
  kind?: "adhoc" | "eval" | "play";
  channel?: "otlp" | "web" | "sdk" | "api";
  data: Record<string, unknown>;
  references?: Record<string, { id?: string; slug?: string; version?: string | number }>;
  links?: Record<string, { trace_id: string; span_id: string }> | { trace_id: string; span_id: string; attributes?: Record<string, unknown> }[];
  tags?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

/**
 * POST /simple/traces/: one `task` span in a new trace (ids minted here), named after the
 * evaluator slug or `annotation`; origin, kind and channel become `ag.flags`; named links keep
 * their name in `attributes.key`. With links the trace is an annotation.
 */
export async function createSimpleTrace(db: Database, config: TracingConfig, projectId: string, input: SimpleTraceInput) {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  const links = Array.isArray(input.links)
    ? input.links
    : isObject(input.links)
      ? Object.entries(input.links).map(([key, link]) => ({ ...link, attributes: { key } }))
      : undefined;
  const evaluatorSlug = input.references?.evaluator?.slug;
  const span = {
    trace_id: traceId,
    span_id: spanId,
    span_name: typeof evaluatorSlug === "string" && evaluatorSlug ? evaluatorSlug : "annotation",
    attributes: {
      ag: {
        type: { span: "task" },
        data: input.data,
        flags: { origin: input.origin ?? "custom", kind: input.kind ?? "adhoc", channel: input.channel ?? "api" },
        ...(input.references ? { references: input.references } : {}),
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.meta ? { meta: input.meta } : {}),
      },
    },
    ...(links ? { links } : {}),
  };
  const parsed = parseTracingRequest({ spans: [span] });
  if (parsed.dropped.length > 0) throw new BadRequestError(`The trace does not make a valid span: ${parsed.dropped[0].reason}`, "invalid_simple_trace");
  await acceptSpans(db, config, projectId, parsed);
  const stored = parsed.spans[0];
  return {
    count: 1,
    trace: {
      trace_id: traceId,
      span_id: spanId,
      origin: span.attributes.ag.flags.origin,
      kind: span.attributes.ag.flags.kind,
      channel: span.attributes.ag.flags.channel,
      data: input.data,
      ...(input.references ? { references: input.references } : {}),
      ...(stored.links ? { links: stored.links } : {}),
    },
  };
}
