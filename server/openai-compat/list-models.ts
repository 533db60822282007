import { z } from "zod";
import type { Principal } from "@/server/auth";
import { AppError } from "@/server/core/errors";
import type { Page } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { deploymentsOf, listEnvironmentStates, type DeployedRevision } from "@/server/domains";
import { DOMAIN_SPECS } from "@/server/domains";
import { listAgents } from "@/server/domains";
import { hasRevisionData, queryArtifacts, type ArtifactRecord } from "@/server/versioning";

export interface ModelEntry {
  id: string;
  object: "model";
  /** Unix seconds: when the agent or application was created. */
  created: number;
  owned_by: string;
}

export const modelEntryWire = z.strictObject({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});

/** OpenAI's model list. */
export const modelListWire = z.strictObject({ object: z.literal("list"), data: z.array(modelEntryWire) });

const PAGE = 500;

/** An application is callable when one of its revisions carries `data.parameters.prompt`. */
const isPromptApplication = hasRevisionData("parameters", "prompt");

/**
 * `GET /v1/models`: every agent of the key's project, then every prompt application whose slug no
 * agent takes (an agent wins a shared name), each followed by the environments that run it under
 * its own key (`<slug>.revision`, what `<name>@<environment>` reads).
 */
export async function listModels(db: Executor, principal: Principal): Promise<{ object: "list"; data: ModelEntry[] }> {
  const scope = { projectId: principal.projectId, userId: principal.userId };
  const agents = await allPages((next) =>
    listAgents(db, scope, { windowing: { limit: PAGE, next, order: "ascending" } }),
  );
  const applications = await allPages((next) =>
    queryArtifacts(db, scope, DOMAIN_SPECS.applications, {
      where: isPromptApplication,
      windowing: { limit: PAGE, next, order: "ascending" },
    }),
  );
  const states = applications.length ? await listEnvironmentStates(db, scope) : [];
  const agentSlugs = new Set(agents.map((agent) => agent.artifact.slug));
  const data: ModelEntry[] = [];
  const add = (artifact: ArtifactRecord, deployments: DeployedRevision[]) => {
    const entry = (id: string): ModelEntry => ({
      id,
      object: "model",
      created: Math.floor(artifact.createdAt.getTime() / 1000),
      owned_by: principal.projectId,
    });
    data.push(entry(artifact.slug));
    const own = deployments.filter((d) => d.key === `${artifact.slug}.revision`).map((d) => d.environment);
    for (const environment of new Set(own)) data.push(entry(`${artifact.slug}@${environment}`));
  };
  for (const { artifact, deployments } of agents) add(artifact, deployments);
  for (const artifact of applications)
    if (!agentSlugs.has(artifact.slug)) add(artifact, deploymentsOf(states, "application", artifact.id));
  return { object: "list", data };
}

/** `GET /v1/models/{model}`: one entry of the list, or 404 `model_not_found`. */
export async function retrieveModel(db: Executor, principal: Principal, model: string): Promise<ModelEntry> {
  const entry = (await listModels(db, principal)).data.find((candidate) => candidate.id === model);
  if (!entry)
    throw new AppError(
      404,
      "model_not_found",
      `model "${model}" is not an agent or prompt application of this project, or not deployed there; GET /v1/models lists them`,
      [{ path: "model", message: "not found" }],
    );
  return entry;
}

async function allPages<T>(page: (next: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined;
  do {
    const current = await page(next);
    items.push(...current.items);
    next = current.next;
  } while (next);
  return items;
}
