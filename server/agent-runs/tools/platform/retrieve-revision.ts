import { z } from "zod";
import { workflowsSpec } from "@/server/domains";
import { retrieveRevision as retrieve, revisionToWire, type RetrieveRefs } from "@/server/versioning";
import { platformOperation } from "./platform-operation";

export const retrieveRevision = platformOperation({
  op: "retrieve_revision",
  description:
    "Retrieves one workflow revision of this project with its data (an agent's template is at data.parameters.agent): by revision id, by workflow slug (latest, or a version), or as deployed to an environment. With no reference, the running agent's own latest revision.",
  endpoint: "POST /api/workflows/revisions/retrieve",
  readOnly: true,
  bound: ["project_id"],
  args: z.object({
    revision_id: z.string().uuid().optional().describe("A revision id."),
    workflow_slug: z
      .string()
      .min(1)
      .optional()
      .describe("A workflow slug: its default variant's latest revision, or `version`."),
    version: z.string().min(1).optional().describe("With workflow_slug: that version of the default variant."),
    environment: z
      .string()
      .min(1)
      .optional()
      .describe("With workflow_slug: the revision deployed to this environment."),
  }),
  run: async (scope, args) => {
    const refs: RetrieveRefs = args.revision_id
      ? { revision: { id: args.revision_id } }
      : args.workflow_slug
        ? {
            artifact: { slug: args.workflow_slug },
            ...(args.version ? { revision: { version: args.version } } : {}),
            ...(args.environment ? { environment: { slug: args.environment } } : {}),
          }
        : ownVariant(scope.agent.references);
    const { revision } = await retrieve(
      scope.app.db,
      { projectId: scope.principal.projectId, userId: scope.principal.userId },
      workflowsSpec,
      refs,
    );
    return revisionToWire(workflowsSpec.keys, revision);
  },
});

function ownVariant(references: Record<string, { id: string }> | undefined): RetrieveRefs {
  const variant = references?.workflow_variant;
  if (!variant)
    throw new Error(
      "name a revision_id or a workflow_slug: this agent runs from an inline template and has no revision of its own",
    );
  return { variant: { id: variant.id } };
}
