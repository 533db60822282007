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
  splitKey?: string,
): Promise<{ template: AgentTemplate; agent: RunAgent }> {
  // flags.resolve (default true): embeds in the template are resolved before it runs.
  const resolve = body.flags?.resolve !== false;
  const parameters = body.data?.parameters;
  const refs = body.references;
  const named = refs && Object.values(refs).some((value) => value !== null && value !== undefined);
  if (parameters) {
    const { template } = await checkAgentTemplate(
      db,
      principal.projectId,
      parameters.agent ?? {},
      "data.parameters.agent.",
      { resolve },
    );
    // A draft of a saved agent (the playground's editor) runs inline but is that agent's run:
    // references name whose draft it is, so its runs and traces are found under the agent.
    return { template, agent: named ? draftOf((await namedRevision(db, principal, refs)).revision) : {} };
  }
  if (!named) {
    throw new BadRequestError(
      "Send data.parameters.agent (an inline template) or references naming a workflow revision to run",
      "missing_agent",
    );
  }
  // Through a split environment the sticky key picks the revision: the caller's, else the session's,
  // so a conversation stays on one revision.
  const { revision, environment } = await namedRevision(db, principal, refs, splitKey ?? body.session_id ?? undefined);
  const agent = (revision.data?.parameters as Record<string, unknown> | undefined)?.agent;
  if (agent === undefined) {
    throw new BadRequestError(
      `workflow revision ${revision.id} has no data.parameters.agent; it is not an agent`,
      "not_an_agent",
    );
  }
  const { template } = await checkAgentTemplate(db, principal.projectId, agent, "data.parameters.agent.", { resolve });
  const draft = draftOf(revision);
  return {
    template,
    agent: {
      ...draft,
      references: {
        ...draft.references,
        workflow_revision: { id: revision.id, slug: revision.slug, version: String(revision.version) },
        // Which environment served it (`agent@production`): the run, its spans and the Runs tab say so.
        ...(environment && {
          environment: { id: environment.revision.artifactId, slug: environment.revision.artifactSlug },
          environment_revision: {
            id: environment.revision.id,
            slug: environment.revision.slug,
            version: String(environment.revision.version),
          },
        }),
      },
    },
  };
}

type Retrieved = Awaited<ReturnType<typeof retrieveRevision>>;
type NamedRevision = Retrieved["revision"];

async function namedRevision(
  db: Database,
  principal: Principal,
  refs: NonNullable<InvokeRequest["references"]>,
  splitKey?: string,
): Promise<Retrieved> {
  return retrieveRevision(
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
    { splitKey },
  );
}

/** The agent an inline draft belongs to: its artifact and variant, no revision (the draft is none). */
function draftOf(revision: NamedRevision): RunAgent {
  return {
    name: revision.artifactSlug,
    references: {
      workflow: { id: revision.artifactId, slug: revision.artifactSlug },
      workflow_variant: { id: revision.variantId, slug: revision.variantSlug },
    },
  };
}
