import { z } from "zod";
import { listAgents } from "@/server/domains";
import { platformOperation } from "./platform-operation";

export const discoverAgents = platformOperation({
  op: "discover_agents",
  description:
    "Lists this project's agents (workflows whose revisions carry an agent template): slug, name, default variant, latest version and where each is deployed.",
  endpoint: "tRPC agents.list",
  readOnly: true,
  bound: ["project_id"],
  args: z.object({
    search: z.string().max(200).optional().describe("Only agents whose name contains this text."),
    limit: z.number().int().min(1).max(100).default(50).describe("At most this many agents."),
  }),
  run: async (scope, args) => {
    const page = await listAgents(
      scope.app.db,
      { projectId: scope.principal.projectId, userId: scope.principal.userId },
      { search: args.search, windowing: { limit: args.limit } },
    );
    return {
      count: page.items.length,
      agents: page.items.map((agent) => ({
        id: agent.artifact.id,
        slug: agent.artifact.slug,
        name: agent.artifact.name ?? null,
        default_variant_id: agent.defaultVariantId ?? null,
        latest_version: agent.latest ? String(agent.latest.version) : null,
        deployed_to: agent.deployments.map((d) => ({ environment: d.environment, version: d.version })),
      })),
    };
  },
});
