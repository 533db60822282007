import { loadConfig, type TracingConfig } from "@/server/core/config";
import type { Database } from "@/server/db";
import { maskSecretValuesDeep, REDACTED_SECRET } from "@/server/core/secret-masking";
import { acceptSpans } from "./ingest/accept";
import { parseTracingRequest } from "./parse-request";
import type { DroppedSpan } from "./span-record";

/**
 * A span as the agent runtime (or any server code) hands it over: the `OTelTracingRequest` span
 * shape. Ids are hex (32 for the trace, 16 for spans); times ISO 8601 or epoch integers; GenAI
 * semantic-convention attributes (`gen_ai.operation.name`, `gen_ai.request.model`,
 * `gen_ai.usage.input_tokens`, `gen_ai.input.messages`, ...) are mapped like OTLP ones.
 */
export interface SpanInput {
  trace_id: string;
  span_id: string;
  parent_id?: string | null;
  span_name: string;
  start_time: string | number;
  end_time?: string | number;
  span_kind?: string;
  status_code?: "STATUS_CODE_UNSET" | "STATUS_CODE_OK" | "STATUS_CODE_ERROR";
  status_message?: string;
  session_id?: string;
  user_id?: string;
  agent_id?: string;
  attributes?: Record<string, unknown>;
  references?: { id?: string; slug?: string; version?: string; attributes?: Record<string, unknown> }[];
  events?: { name: string; timestamp: string | number; attributes?: Record<string, unknown> }[];
  links?: { trace_id: string; span_id: string; attributes?: Record<string, unknown> }[];
}

export interface RecordSpansOptions {
  /** Tracing settings; read from the environment when omitted. */
  config?: TracingConfig;
  /**
   * Secret values (provider keys, MCP header secrets, ...) that must never reach a span: every
   * occurrence in any string of the spans is replaced with `[REDACTED]` before anything is stored.
   */
  redact?: string[];
  /**
   * The API key on whose behalf the spans are recorded, set as `ag.meta.api_key.id` on each (null:
   * none, and a value a span carries is removed); undefined leaves the spans' own value.
   */
  apiKeyId?: string | null;
  /** False only for the analytics benchmark's baseline: ingest without the analytics roll-up. */
  rollups?: boolean;
}

export interface RecordSpansResult {
  /** Spans durably queued: when this resolves they survive a crash and become queryable shortly. */
  count: number;
  dropped: DroppedSpan[];
}

/**
 * Records spans through the same durable path as `POST /api/tracing/spans/ingest`: parsed and
 * normalised the same way, written in one committed insert into the ingest queue, then stored
 * by the ingest worker (roll-ups included). Server code calls it directly, without HTTP.
 *
 * Unlike HTTP ingest it is not refused when the queue is past its backlog limit: spans of work
 * the server itself did (an agent run) are bounded by that work, and failing or losing them
 * would be worse than a longer queue.
 */
export async function recordSpans(
  db: Database,
  projectId: string,
  spans: SpanInput[],
  options: RecordSpansOptions = {},
): Promise<RecordSpansResult> {
  const config = options.config ?? loadConfig().tracing;
  const secrets = (options.redact ?? []).filter((s) => typeof s === "string" && s.length >= 4);
  const input = secrets.length > 0 ? (maskSecretValuesDeep(spans, secrets, REDACTED_SECRET) as SpanInput[]) : spans;
  const parsed = parseTracingRequest({ spans: input });
  const accepted = await acceptSpans(db, { ...config, maxBacklogSpans: Number.POSITIVE_INFINITY }, projectId, parsed, {
    rollups: options.rollups,
    apiKeyId: options.apiKeyId,
  });
  return { count: accepted.spans.length, dropped: accepted.dropped };
}
