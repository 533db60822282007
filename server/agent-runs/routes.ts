import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { batchTurnSchema, TURN_HEADERS } from "@/server/streams";
import { invokeAgent, invokeRequestSchema, TURN_ERROR_CODES } from "./invoke";
import { interactionRoutes } from "./permissions/routes";
import { runRoutes } from "./runs/routes";
import { platformToolRoutes } from "./tools/platform/routes";

/** `flags.background`: 202 with the run to follow (`GET /services/agent/v0/runs/{id}`, its events, webhooks). */
const backgroundAccepted = z.strictObject({
  run_id: z.string(),
  session_id: z.string(),
  trace_id: z.string(),
  status: z.literal("running"),
  /** The paused run this run continues, when its input answered that run's approval requests. */
  continues_run_id: z.string().optional(),
});
const background = {
  202: {
    description: "A background run, started: follow it by its id",
    response: backgroundAccepted,
    headers: TURN_HEADERS,
  },
};

/** The agent service. Streaming stays here, out of tRPC. */
export const agentRunRoutes = [
  defineRoute({
    method: "POST",
    path: "/services/agent/v0/invoke",
    auth: "api_key",
    keyScope: "run",
    tag: "agent",
    summary:
      "Run one agent turn: batch JSON, SSE or NDJSON; native frames or the AI SDK UI Message Stream (mutating: runs the model)",
    body: invokeRequestSchema,
    // The batch answer (or 202 for a background run); SSE and NDJSON answers stream the same turn as frames.
    response: batchTurnSchema,
    otherSuccess: background,
    headers: TURN_HEADERS,
    errors: [
      ...TURN_ERROR_CODES,
      "budget_exceeded",
      "force_not_supported",
      "gateway_error",
      "gateway_not_configured",
      "invalid_agent_template",
      "invalid_messages_format",
      "mcp_server_unavailable",
      "mcp_tool_not_found",
      "model_not_allowed",
      "not_acceptable",
      "not_found",
      "rate_limited",
      "secret_not_found",
      "unknown_connection",
      "unknown_platform_op",
      "unresolved_provider",
      "version_without_context",
    ],
    handler: async ({ ctx, body }) => invokeAgent(ctx.app, ctx.principal, ctx.request, body),
  }),
  // The playground's chat: the same turn, authenticated by the session cookie so that no API key
  // ever reaches the browser.
  defineRoute({
    method: "POST",
    path: "/api/playground/invoke",
    auth: "session",
    tag: "agent",
    summary:
      "The playground's chat: one agent turn as the signed-in user (session cookie, same origin only); same body and negotiation as invoke",
    body: invokeRequestSchema,
    // The batch answer (or 202 for a background run); SSE and NDJSON answers stream the same turn as frames.
    response: batchTurnSchema,
    otherSuccess: background,
    headers: TURN_HEADERS,
    errors: [
      ...TURN_ERROR_CODES,
      "force_not_supported",
      "invalid_messages_format",
      "mcp_server_unavailable",
      "mcp_tool_not_found",
      "not_found",
      "secret_not_found",
    ],
    handler: async ({ ctx, body }) => invokeAgent(ctx.app, ctx.principal, ctx.request, body, "playground"),
  }),
  ...runRoutes,
  ...interactionRoutes,
  ...platformToolRoutes,
];
