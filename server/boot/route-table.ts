import { z } from "zod";
import { analyticsRoutes } from "@/server/analytics";
import { accountRoutes } from "@/server/auth/account-routes";
import { auditRoutes } from "@/server/audit";
import { redactionRoutes } from "@/server/redaction";
import { retentionRoutes } from "@/server/retention";
import { controlsRoutes } from "@/server/controls";
import { authRoutes } from "@/server/auth/routes";
import { automationRoutes, triggerCompatRoutes } from "@/server/automations";
import { canaryRoutes } from "@/server/canaries";
import { optimizationRoutes } from "@/server/improve";
import { domainRoutes } from "@/server/domains/routes";
import { evaluationRoutes } from "@/server/evaluations";
import { monitorRoutes } from "@/server/monitors";
import { triageRoutes } from "@/server/improve";
import { eventRoutes } from "@/server/events/routes";
import { exposureRoutes } from "@/server/exposure";
import { mcpDoorRoutes } from "@/server/mcp-door";
import { oauthRoutes } from "@/server/oauth";
import { buildOpenApiDocument } from "@/server/http/openapi";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { openAiRoutes } from "@/server/openai-compat";
import { a2aRoutes } from "@/server/a2a";
import { pricingRoutes } from "@/server/pricing";
import { connectionTestRoutes } from "@/server/agent-runs/providers/routes";
import { agentRunRoutes } from "@/server/agent-runs/routes";
import { systemRoutes } from "@/server/system/routes";
import { tracingRoutes } from "@/server/tracing/routes";
import { vaultRoutes } from "@/server/vault/routes";
import { webhookRoutes } from "@/server/webhooks/routes";
import { cronRoutes } from "./cron-route";

/** Every REST route of the service. A new area adds its list here, and so appears in OpenAPI. */
export const apiRoutes: AnyRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...accountRoutes,
  ...domainRoutes,
  ...canaryRoutes,
  ...optimizationRoutes,
  ...eventRoutes,
  ...agentRunRoutes,
  ...vaultRoutes,
  ...connectionTestRoutes,
  ...tracingRoutes,
  ...analyticsRoutes,
  ...webhookRoutes,
  ...evaluationRoutes,
  ...automationRoutes,
  ...triggerCompatRoutes,
  ...pricingRoutes,
  ...controlsRoutes,
  ...exposureRoutes,
  ...mcpDoorRoutes,
  ...oauthRoutes,
  ...auditRoutes,
  ...redactionRoutes,
  ...retentionRoutes,
  ...monitorRoutes,
  ...triageRoutes,
  ...cronRoutes,
];

const openApiRoute = defineRoute({
  method: "GET",
  path: "/api/openapi.json",
  auth: "none",
  tag: "system",
  summary: "This OpenAPI 3.1 document",
  response: z.strictObject({
    openapi: z.literal("3.1.0"),
    info: z.strictObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  }),
  handler: async () => openApiDocument(),
});

/** The document `GET /api/openapi.json` serves: every route of both routers. */
export function openApiDocument() {
  return buildOpenApiDocument([...allRoutes, ...openAiRoutes, ...a2aRoutes], {
    title: "Agent service API",
    version: "0.1.0",
  });
}

export const allRoutes: AnyRoute[] = [...apiRoutes, openApiRoute];
