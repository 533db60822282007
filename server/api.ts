import { onProjectCreated } from "@/server/auth";
import { accountRoutes } from "@/server/auth/account-routes";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createAuthHandler, isAuthPath, isAuthRequest } from "@/server/auth/auth-handler";
import { authRoutes } from "@/server/auth/routes";
import { seedEnvironments } from "@/server/domains/environments/seed";
import { domainRoutes } from "@/server/domains/routes";
import { eventRoutes } from "@/server/events/routes";
import type { AppContext } from "@/server/http/app-context";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { connectionTestRoutes } from "@/server/runner/providers/routes";
import { agentRunRoutes } from "@/server/runner/routes";
import { vaultRoutes } from "@/server/vault/routes";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { nodeIncoming } from "@/server/http/node-incoming";
import { toResponse } from "@/server/http/reply";
import { createRouter, type RequestHandler } from "@/server/http/router";
import { webIncoming } from "@/server/http/web-incoming";
import { writeReply } from "@/server/http/write-reply";
import { systemRoutes } from "@/server/system/routes";
import { tracingRoutes } from "@/server/tracing/routes";
import { webhookRoutes } from "@/server/webhooks/routes";
import { workerRoutes } from "@/server/worker/routes";

/** Every REST route of the service. A new area adds its list here, and so appears in OpenAPI. */
export const apiRoutes: AnyRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...accountRoutes,
  ...domainRoutes,
  ...eventRoutes,
  ...agentRunRoutes,
  ...vaultRoutes,
  ...connectionTestRoutes,
  ...tracingRoutes,
  ...webhookRoutes,
  ...workerRoutes,
];

// Composition root: new projects get the standard environments.
onProjectCreated(seedEnvironments);

const openApiRoute = defineRoute({
  method: "GET",
  path: "/api/openapi.json",
  auth: "none",
  tag: "system",
  summary: "This OpenAPI 3.1 document",
  handler: async () => buildOpenApiDocument(allRoutes, { title: "Agent service API", version: "0.1.0" }),
});

const allRoutes: AnyRoute[] = [...apiRoutes, openApiRoute];

/** The node:http door's shape: answers on `res`, never rejects. */
export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The two doors into one route table: `web` for the Next.js route (next dev, Vercel, tests) and
 * `node` for the production server (server.ts). In both, `/api/auth/*` goes to better-auth and
 * every other path to the router.
 */
export function createApiDoors(app: AppContext): { web: RequestHandler; node: NodeRequestHandler } {
  const route = createRouter(allRoutes, app);
  const authenticate = createAuthHandler(app);
  return {
    web: async (request) => (isAuthRequest(request) ? authenticate(request) : toResponse(await route(webIncoming(request)))),
    node: async (req, res) => {
      const incoming = nodeIncoming(req, res);
      const reply = isAuthPath(incoming.pathname) ? await authenticate(incoming.request) : await route(incoming);
      writeReply(reply, res, !incoming.settleBody(app.config.maxBodyBytes));
    },
  };
}

export function createApiHandler(app: AppContext): RequestHandler {
  return createApiDoors(app).web;
}
