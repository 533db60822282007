import { z } from "zod";
import { AGENT_CARD_PATH, A2A_VERSION_HEADER } from "@a2a-js/sdk";
import { NotFoundError } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { a2aHandler, exposedAgentCard, publicOrigin } from "./a2a-agent";
import { answerJsonRpc } from "./json-rpc-door";

const params = z.strictObject({
  project_id: z.uuid(),
  name: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/, "an exposed agent's name"),
});

/** A JSON-RPC 2.0 answer: a result, or an error (which JSON-RPC reports with status 200). */
const jsonRpcEnvelope = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});

/** The project id in the path must be the key's: an A2A URL names the project it belongs to. */
function sameProject(projectId: string, principal: { projectId: string }) {
  return projectId === principal.projectId;
}

/** The A2A door: served by its own router (`Bearer` keys), under /services/a2a/. */
export const a2aRoutes = [
  defineRoute({
    method: "GET",
    path: `/services/a2a/v0/{project_id}/{name}/${AGENT_CARD_PATH}`,
    auth: "api_key",
    keyScope: "run",
    tag: "a2a",
    summary: "The A2A agent card of an exposed agent (skills from its description and tools; bearer API key)",
    params,
    response: z.record(z.string(), z.unknown()),
    errors: ["agent_not_exposed"],
    handler: async ({ ctx, params: { project_id, name } }) => {
      if (!sameProject(project_id, ctx.principal)) return notExposed(name);
      return (await exposedAgentCard(ctx.app, ctx.principal, name, publicOrigin(ctx.app, ctx))).card;
    },
  }),
  defineRoute({
    method: "POST",
    path: "/services/a2a/v0/{project_id}/{name}",
    auth: "api_key",
    keyScope: "run",
    tag: "a2a",
    summary:
      "A2A JSON-RPC for an exposed agent: message/send, message/stream (SSE), tasks/get, tasks/cancel, tasks/resubscribe, tasks/pushNotificationConfig/set|get|list|delete (protocol 0.3; the 1.0 names with A2A-Version: 1.0). A task is a durable background run (origin a2a); its settled state is pushed to https configs",
    params,
    body: z.record(z.string(), z.unknown()),
    response: jsonRpcEnvelope,
    errors: ["agent_not_exposed"],
    handler: async ({ ctx, params: { project_id, name }, body }) => {
      if (!sameProject(project_id, ctx.principal)) return notExposed(name);
      const handler = await a2aHandler(ctx.app, ctx.principal, name, publicOrigin(ctx.app, ctx));
      return answerJsonRpc(handler, body, ctx.header(A2A_VERSION_HEADER.toLowerCase()));
    },
  }),
];

function notExposed(name: string): never {
  throw new NotFoundError(`No exposed agent "${name}" in this project`, "agent_not_exposed");
}
