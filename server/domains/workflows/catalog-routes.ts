import { z } from "zod";
import {
  agentInspectInterface,
  agentInspectInterfaceWire,
  getHarness,
  harnessInfoWire,
  listHarnesses,
  type HarnessDeployment,
} from "@/server/agent-template";
import type { Config } from "@/server/core/config";
import { NotFoundError } from "@/server/core/errors";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";

const deploymentOf = (config: Config): HarnessDeployment => ({ externalHarness: config.externalHarness.enabled });

/**
 * The workflow catalog's harnesses and the agent workflow's interface; types are in
 * catalog-type-routes.ts, the platform tools with their catalog in server/agent-runs.
 */
export const harnessCatalogRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/workflows/catalog/harnesses",
    auth: "api_key",
    tag: "catalog",
    summary: "List the harnesses with the providers, deployments, connection modes and models each reaches",
    response: manySchema("harnesses", harnessInfoWire),
    handler: async ({ ctx }) => many("harnesses", listHarnesses(deploymentOf(ctx.app.config))),
  }),
  defineRoute({
    method: "GET",
    path: "/api/workflows/catalog/harnesses/{harness}",
    auth: "api_key",
    tag: "catalog",
    summary: "One harness: providers, deployments, connection modes and model selection",
    params: z.object({ harness: z.string() }),
    response: oneSchema("harness", harnessInfoWire),
    errors: ["not_found"],
    handler: async ({ ctx, params }) => {
      const harness = getHarness(params.harness, deploymentOf(ctx.app.config));
      if (!harness) {
        throw new NotFoundError(
          `Unknown harness "${params.harness}"; known: ${listHarnesses()
            .map((h) => h.kind)
            .join(", ")}`,
        );
      }
      return one("harness", harness);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/services/agent/v0/inspect",
    auth: "api_key",
    tag: "agent",
    summary:
      "The agent workflow's interface: parameters (agent template, with the default), inputs (messages), outputs",
    response: agentInspectInterfaceWire,
    handler: async () => agentInspectInterface(),
  }),
];
