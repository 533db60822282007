import { z } from "zod";
import { defineRoute, type HttpMethod } from "@/server/http/route";
import { handleMcpRequest } from "./mcp-endpoint";

const params = z.strictObject({ project_id: z.uuid("project_id: the project's id (a UUID)") });

const route = (method: HttpMethod, summary: string) =>
  defineRoute({
    method,
    path: "/api/mcp/{project_id}",
    // The door authenticates itself: a refusal must carry MCP's WWW-Authenticate (the OAuth flow's start).
    auth: "none",
    tag: "mcp",
    summary,
    params,
    rawBody:
      method === "POST"
        ? { contentTypes: ["application/json"], description: "A JSON-RPC message or batch" }
        : undefined,
    noJsonBody: {
      description: "MCP Streamable HTTP: a JSON-RPC answer as JSON or as an SSE stream, or 202 for notifications",
      contentTypes: ["application/json", "text/event-stream"],
    },
    headers: {
      "Mcp-Session-Id": {
        description: "On the answer to initialize: the session's id, sent back on every later request",
        schema: z.string(),
      },
    },
    otherSuccess: { 202: { description: "Notifications and responses accepted (no answer is due)" } },
    errors: ["mcp_unauthorized", "wrong_project"],
    handler: async ({ ctx, params }) => handleMcpRequest(ctx.app, ctx.request, params.project_id),
  });

/** The project's MCP server (Streamable HTTP, stateless): POST messages, GET the notification stream, DELETE a session. */
export const mcpDoorRoutes = [
  route(
    "POST",
    "MCP (Streamable HTTP): the project's exposed agents as tools, prompt applications as prompts, deployed revisions as resources",
  ),
  route(
    "GET",
    "MCP (Streamable HTTP): the server's notification stream (list_changed when deploys or the exposure change the lists)",
  ),
  route("DELETE", "MCP (Streamable HTTP): end a session (nothing is kept per session, so nothing is freed)"),
];
