import type { AgentTemplate } from "@/server/agent-template";
import type { Principal } from "@/server/auth";
import { BadRequestError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { checkAgentTemplate } from "@/server/domains";
import { workflowsSpec } from "@/server/domains";
import { retrieveRevision } from "@/server/versioning";
import type { RunAgent } from "../run-agent";
import type { InvokeRequest } from "./invoke-request";

/**
 * The turn's template, validated: inline (`data.parameters.agent`) or the agent of the workflow
 * revision the references name, with who runs it (the artifact, variant and revision).
 */
export async function loadTemplate(
  db: Database,
  principal: Principal,
  body: InvokeRequest,
): Promise<{ template: AgentTemplate; agent: RunAgent }> {
  // flags.resolve (default true): embeds in the template are resolved before it runs.
  const resolve = body.flags?.resolve !== false;
  const parameters = body.data?.parameters;
  if (parameters) {
    return {
      template: (
        await checkAgentTemplate(db, principal.projectId, parameters.agent ?? {}, "data.parameters.agent.", { resolve })
      ).template,
      agent: {},
    };
  }
  const refs = body.references;
  if (!refs || Object.values(refs).every((value) => value === null || value === undefined)) {
    throw new BadRequestError(
      "Send data.parameters.agent (an inline template) or references naming a workflow revision to run",
      "missing_agent",
    );
  }
  const { revision } = await retrieveRevision(
    db,
    { projectId: principal.projectId, userId: principal.userId },
    workflowsSpec,
    {
      artifact: refs.workflow ?? undefined,
      variant: refs.workflow_variant ?? undefined,
      revision: refs.workflow_revision ?? undefined,
      environment: refs.environment ?? undefined,
      environmentVariant: refs.environment_variant ?? undefined,
      environmentRevision: refs.environment_revision ?? undefined,
      key: refs.key ?? undefined,
    },
  );
  const agent = (revision.data?.parameters as Record<string, unknown> | undefined)?.agent;
  if (agent === undefined) {
    throw new BadRequestError(
      `workflow revision ${revision.id} has no data.parameters.agent; it is not an agent`,
      "not_an_agent",
    );
  }
  const { template } = await checkAgentTemplate(db, principal.projectId, agent, "data.parameters.agent.", { resolve });
  return {
    template,
    agent: {
      name: revision.artifactSlug,
      references: {
        workflow: { id: revision.artifactId, slug: revision.artifactSlug },
        workflow_variant: { id: revision.variantId, slug: revision.variantSlug },
        workflow_revision: { id: revision.id, slug: revision.slug, version: String(revision.version) },
      },
    },
  };
}
