import { defineRoute } from "@/server/http/route";
import { batchTurnSchema } from "@/server/streams";
import { invokeAgent, invokeRequestSchema } from "./invoke";

/** The agent service. Streaming stays here, out of tRPC. */
export const agentRunRoutes = [
  defineRoute({
    method: "POST",
    path: "/services/agent/v0/invoke",
    auth: "api_key",
    tag: "agent",
    summary:
      "Run one agent turn: batch JSON, SSE or NDJSON; native frames or the AI SDK UI Message Stream (mutating: runs the model)",
    body: invokeRequestSchema,
    // The batch answer; SSE and NDJSON answers stream the same turn as frames.
    response: batchTurnSchema,
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
    // The batch answer; SSE and NDJSON answers stream the same turn as frames.
    response: batchTurnSchema,
    handler: async ({ ctx, body }) => invokeAgent(ctx.app, ctx.principal, ctx.request, body),
  }),
];
