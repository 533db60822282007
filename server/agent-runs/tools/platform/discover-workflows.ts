import { z } from "zod";
import { workflowsSpec } from "@/server/domains";
import { queryArtifacts } from "@/server/versioning";
import { platformOperation } from "./platform-operation";

export const discoverWorkflows = platformOperation({
  op: "discover_workflows",
  description: "Lists this project's workflows (agents among them): id, slug, name and description.",
  endpoint: "POST /api/workflows/query",
  readOnly: true,
  bound: ["project_id"],
  args: z.object({
    search: z.string().max(200).optional().describe("Only workflows whose name contains this text."),
    limit: z.number().int().min(1).max(100).default(50).describe("At most this many workflows."),
  }),
  run: async (scope, args) => {
    const page = await queryArtifacts(
      scope.app.db,
      { projectId: scope.principal.projectId, userId: scope.principal.userId },
      workflowsSpec,
      {
        filter: { name: args.search },
        windowing: { limit: args.limit },
      },
    );
    return {
      count: page.items.length,
      workflows: page.items.map((w) => ({
        id: w.id,
        slug: w.slug,
        name: w.name ?? null,
        description: w.description ?? null,
      })),
    };
  },
});
