import { z } from "zod";
import type { NativeEvent } from "@/server/streams";
import { workflowsSpec } from "@/server/domains";
import { commitRevision as commit, revisionToWire } from "@/server/versioning";
import type { RunScope } from "../tool-types";
import { platformOperation } from "./platform-operation";

/** The running agent's own variant: the only one this operation commits to. */
function ownVariantId(scope: RunScope): string | undefined {
  return scope.agent.references?.workflow_variant?.id;
}

export const commitRevision = platformOperation({
  op: "commit_revision",
  description:
    "Commits a new revision of the running agent itself (its own workflow variant) with the given data; an agent template goes at data.parameters.agent and is validated like any commit. Returns the new revision's id and version.",
  endpoint: "POST /api/workflows/revisions/commit",
  readOnly: false,
  bound: ["project_id", "workflow_variant_id", "user_id"],
  args: z.object({
    data: z.record(z.string(), z.unknown()).describe("The revision's data, e.g. {parameters: {agent: {...}}}."),
    message: z.string().max(2000).optional().describe("Commit message."),
  }),
  availableIn: (scope) =>
    ownVariantId(scope)
      ? undefined
      : "the agent runs from an inline template, so it has no variant of its own to commit to; run it by reference",
  run: async (scope, args) => {
    const variantId = ownVariantId(scope);
    if (!variantId) throw new Error("this agent has no variant of its own to commit to");
    const { revision, warnings } = await commit(
      scope.app.db,
      { projectId: scope.principal.projectId, userId: scope.principal.userId },
      workflowsSpec,
      {
        variantId,
        data: args.data,
        message: args.message,
      },
    );
    const wire = revisionToWire(workflowsSpec.keys, revision);
    return {
      id: wire.id,
      version: wire.version,
      workflow_variant_id: revision.variantId,
      message: revision.message,
      ...(warnings.length ? { warnings } : {}),
    };
  },
  resultEvents: (output): NativeEvent[] => {
    const committed = output as { id: string; version: string; workflow_variant_id: string };
    return [
      {
        type: "data",
        name: "committed-revision",
        data: { variantId: committed.workflow_variant_id, revisionId: committed.id, version: committed.version },
      },
    ];
  },
});
