import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { isRunnableEvaluatorUri, parseEvaluatorUri } from "@/server/evaluations/evaluators";
import { domainKeys, Lookup, type RevisionRecord } from "@/server/versioning";
import type { Step } from "../model/run-data";
import type { AgentTarget } from "./agent-runner";
import { readPromptTemplate, type PromptTemplate } from "./prompt-template";

export type ApplicationTarget =
  | { kind: "agent"; agent: AgentTarget; name: string }
  /**
   * `agenta:custom:mock:v0` as an application: the scripted mock, as the reference implementation's
   * flow tests run it.
   */
  | { kind: "mock"; uri: string; data: Record<string, unknown>; name: string }
  | {
      kind: "prompt";
      prompt: PromptTemplate;
      name: string;
      references: Record<string, { id: string; slug?: string | null; version?: string | null }>;
    };

export interface EvaluatorTarget {
  uri: string;
  data: Record<string, unknown>;
}

/** Revisions are immutable, so what a revision id resolves to is cached for the process's life. */
const cache = new Map<string, ApplicationTarget | EvaluatorTarget>();

export async function lookupRevision(
  db: Executor,
  projectId: string,
  domains: ("applications" | "workflows" | "evaluators" | "testsets" | "queries")[],
  id: string,
  what: string,
): Promise<{ revision: RevisionRecord; domain: string }> {
  for (const domain of domains) {
    try {
      return { revision: await new Lookup(db, projectId, domainKeys(domain)).revision({ id }, what), domain };
    } catch (error) {
      if ((error as { status?: number }).status !== 404 && (error as { status?: number }).status !== 400) throw error;
    }
  }
  throw new BadRequestError(
    `${what} ${id} names no ${domains.join(" or ")} revision in this project`,
    "unknown_revision",
  );
}

/**
 * What an invocation step runs: an agent (`data.parameters.agent`, through the invoke path) or a
 * prompt (`data.parameters.prompt`, through the prompt runner), or a draft's inline agent
 * (`step.parameters.agent`). Anything else is refused.
 */
export async function applicationTarget(db: Executor, projectId: string, step: Step): Promise<ApplicationTarget> {
  // A draft has no revision to resolve (nor to cache by): its template rides on the step.
  if (step.parameters?.agent !== undefined)
    return {
      kind: "agent",
      name: step.references.application?.slug ?? step.key,
      agent: { template: step.parameters.agent },
    };
  const id = revisionIdOf(step, ["application_revision", "workflow_revision"]);
  const cached = cache.get(id) as ApplicationTarget | undefined;
  if (cached) return cached;
  const { revision, domain } = await lookupRevision(
    db,
    projectId,
    ["applications", "workflows"],
    id,
    "application revision",
  );
  const parameters = (revision.data?.parameters ?? {}) as Record<string, unknown>;
  const uri = typeof revision.data?.uri === "string" ? revision.data.uri : "";
  let target: ApplicationTarget;
  if (isMockUri(uri)) {
    target = { kind: "mock", uri, data: revision.data ?? {}, name: revision.artifactSlug };
  } else if (parameters.agent !== undefined) {
    target = {
      kind: "agent",
      name: revision.artifactSlug,
      agent: domain === "workflows" ? { workflowRevisionId: revision.id } : { template: parameters.agent },
    };
  } else if (parameters.prompt !== undefined) {
    const prefix = domain === "workflows" ? "workflow" : "application";
    target = {
      kind: "prompt",
      name: revision.artifactSlug,
      prompt: readPromptTemplate(revision.id, parameters.prompt),
      references: {
        [prefix]: { id: revision.artifactId, slug: revision.artifactSlug },
        [`${prefix}_variant`]: { id: revision.variantId, slug: revision.variantSlug },
        [`${prefix}_revision`]: { id: revision.id, slug: revision.slug, version: String(revision.version) },
      },
    };
  } else {
    throw new BadRequestError(
      `application revision ${revision.id} has neither data.parameters.prompt (a prompt application) nor data.parameters.agent (an agent)${uri ? ` and its data.uri "${uri}" is no application this service runs` : ""}; there is nothing to invoke`,
      "not_invocable",
    );
  }
  cache.set(id, target);
  return target;
}

/** What an annotation step runs: the evaluator revision's `data.uri` and its whole `data`. */
export async function evaluatorTarget(db: Executor, projectId: string, step: Step): Promise<EvaluatorTarget> {
  const id = revisionIdOf(step, ["evaluator_revision"]);
  const cached = cache.get(id) as EvaluatorTarget | undefined;
  if (cached) return cached;
  const { revision } = await lookupRevision(db, projectId, ["evaluators"], id, "evaluator revision");
  const data = revision.data ?? {};
  const uri = typeof data.uri === "string" ? data.uri : "";
  if (!uri) {
    throw new BadRequestError(
      `evaluator revision ${revision.id} has no data.uri (it is defined by its schemas only): nothing runs it, its values come from annotations; make its step human`,
      "no_evaluator_uri",
    );
  }
  if (!isRunnableEvaluatorUri(uri)) {
    throw new BadRequestError(
      `evaluator revision ${revision.id} has data.uri "${uri}", which names no evaluator this service runs`,
      "unknown_evaluator",
    );
  }
  const target = { uri, data };
  cache.set(id, target);
  return target;
}

function isMockUri(uri: string): boolean {
  const parsed = parseEvaluatorUri(uri);
  return parsed?.family === "custom" && parsed.key === "mock";
}

export function revisionIdOf(step: Step, keys: string[]): string {
  for (const key of keys) {
    const id = step.references[key]?.id;
    if (id) return id;
  }
  throw new BadRequestError(`step "${step.key}" has no ${keys.join(" or ")} reference with an id`, "missing_reference");
}
