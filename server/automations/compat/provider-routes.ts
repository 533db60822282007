import { z } from "zod";
import { defineRoute } from "@/server/http/route";

/**
 * The reference implementation's integration-provider surface (its Composio catalog and shared
 * connections), as it answers with no provider configured: this service connects to no
 * third-party app platform, so the catalog lists no provider and there are no connections. A
 * provider or connection named by key or id is the router's 404 for a path it does not serve,
 * and creating a connection is not offered: none of those routes exists.
 */
const tag = "triggers";
const none = (key: string) => z.strictObject({ count: z.literal(0), [key]: z.array(z.never()).max(0) });

export const providerCompatRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/triggers/catalog/providers/",
    auth: "api_key",
    tag,
    summary: "Integration providers for app-event triggers: none (no provider is configured)",
    response: none("providers"),
    handler: async () => ({ count: 0, providers: [] }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/triggers/connections/query",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Connections to integration providers: none (no provider is configured)",
    query: z.object({ provider_key: z.string().optional(), integration_key: z.string().optional() }),
    response: none("connections"),
    handler: async () => ({ count: 0, connections: [] }),
  }),
];
