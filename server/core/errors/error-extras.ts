import { z } from "zod";
import type { ErrorCode } from "./error-codes";

/** A response header as the OpenAPI document gives it: what it says, and the value's schema. */
export interface HeaderDoc {
  description: string;
  schema: z.ZodType;
  /** Sent on every answer that documents it (else only when it applies: a rate-limited turn's RateLimit). */
  always?: boolean;
}

/**
 * What an error answer of one code carries besides `detail`, `code` and `errors`: body fields (at
 * the top level, and in `detail` when it is the structured object) and headers. The OpenAPI
 * document gives each such code a schema of its own, so a generated client accepts the fields;
 * the test suites check every error answer they receive against it. A code not listed here carries
 * nothing more (its schema forbids any other field).
 */
export interface ErrorExtras {
  fields?: z.ZodRawShape;
  headers?: Record<string, HeaderDoc>;
}

export const RETRY_AFTER: HeaderDoc = {
  description: "Seconds to wait before trying again",
  schema: z.int().min(0),
  always: true,
};

/** The IETF draft's structured lists (draft-ietf-httpapi-ratelimit-headers), one item per policy counted against. */
export const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  RateLimit: {
    description: 'What is left of each limit the turn counted against: `"<policy>";r=<remaining>;t=<seconds to reset>`',
    schema: z.string(),
  },
  "RateLimit-Policy": {
    description: 'Each limit the turn counted against: `"<policy>";q=<quota>;w=<window seconds>`',
    schema: z.string(),
  },
};

const text = (description: string): HeaderDoc => ({ description, schema: z.string() });

/**
 * What an agent run's answer says about it in headers: on a turn's success (server/streams
 * TURN_HEADERS adds the frames' own) and on the OpenAI door's 502 of a run that failed.
 */
export const RUN_HEADERS: Record<string, HeaderDoc> = {
  "X-Svc-Run-Id": text("The run: cancel it, fetch it or follow its events by this id"),
  "X-Svc-Session-Id": text("The agent session the turn belongs to"),
  "X-Svc-Trace-Id": text("The turn's trace"),
  traceparent: text("W3C trace context of the run's span"),
  "X-Svc-Revision-Id": text("The agent revision that ran (an environment split's arm included)"),
  ...RATE_LIMIT_HEADERS,
};

const slugConflict = { conflict: z.strictObject({ slug: z.string() }) };
const queueId = { queue_id: z.string() };

export const errorExtras: Partial<Record<ErrorCode, ErrorExtras>> = {
  mcp_unauthorized: {
    headers: {
      "WWW-Authenticate": {
        description: '`Bearer resource_metadata="<url>"`: where the OAuth protected resource metadata (RFC 9728) is',
        schema: z.string(),
        always: true,
      },
    },
  },
  budget_exceeded: {
    fields: {
      budget: z
        .strictObject({
          id: z.string(),
          name: z.string(),
          scope: z.enum(["project", "agent", "api_key"]),
          target_id: z.string().optional(),
          window: z.string(),
          time_zone: z.string(),
          limit_usd: z.number(),
          spent_usd: z.number(),
          resets_at: z.string(),
        })
        .describe("The budget that refused: its window, limit, spend and when it resets"),
    },
  },
  model_not_allowed: {
    fields: {
      model: z.string().describe("The refused model, `<provider>/<model>`"),
      rule: z
        .strictObject({ owner: z.string(), patterns: z.array(z.string()) })
        .describe("The allowlist that refused it and its patterns"),
    },
  },
  rate_limited: {
    fields: {
      limit: z
        .strictObject({ policy: z.string(), quota: z.number(), window_seconds: z.number() })
        .describe("The limit that refused: its policy name, quota and window"),
    },
    headers: { "Retry-After": RETRY_AFTER, ...RATE_LIMIT_HEADERS },
  },
  ingest_backlog_full: { headers: { "Retry-After": RETRY_AFTER } },
  agent_run_failed: { headers: RUN_HEADERS },
  slug_taken: { fields: slugConflict },
  evaluation_closed: { fields: { run_id: z.string() } },
  interaction_not_pending: {
    fields: {
      run_id: z
        .string()
        .optional()
        .describe("The run continuing with the answer that won (being started, running or done), when there is one"),
    },
  },
  default_queue_exists: { fields: queueId },
  default_queue_demotion: { fields: queueId },
  default_queue_delete: { fields: { queue_ids: z.array(z.string()) } },
};
