import { defineRoute } from "@/server/http/route";
import { invokeAgent, invokeRequestSchema } from "./invoke";

/** The agent service. Streaming stays here, out of tRPC. */
export const agentRunRoutes = [
  defineRoute({
    method: "POST",
    path: "/services/agent/v0/invoke",
    auth: "api_key",
    tag: "agent",
    summary: "Run one agent turn: batch JSON, SSE or NDJSON; native frames or the AI SDK UI Message Stream (mutating: runs the model)",
    body: invokeRequestSchema,
    handler: async ({ ctx, body }) => invokeAgent(ctx.app, ctx.principal, ctx.request, body),
  }),
];
