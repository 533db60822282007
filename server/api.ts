import { onProjectCreated } from "@/server/auth";
import { accountRoutes } from "@/server/auth/account-routes";
import { createAuthHandler, isAuthRequest } from "@/server/auth/auth-handler";
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
import { createRouter, type RequestHandler } from "@/server/http/router";
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

/** `/api/auth/*` goes to better-auth; every other path to the route table. */
export function createApiHandler(app: AppContext): RequestHandler {
  const route = createRouter(allRoutes, app);
  const authenticate = createAuthHandler(app);
  return (request) => (isAuthRequest(request) ? authenticate(request) : route(request));
}
