import type { Principal } from "@/server/auth";
import { NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { exposedEntry, exposedNow, type ExposedEntry, type ExposedTarget } from "@/server/exposure";

/**
 * The agent the project exposes under `name` and its environment runs now (server/exposure: the
 * owner's choice, default none). Anything else, another project's included, is 404: an A2A
 * client learns nothing about agents that are not exposed to it.
 */
export async function exposedAgent(db: Executor, principal: Principal, name: string): Promise<ExposedTarget> {
  const found = (await exposedNow(db, { projectId: principal.projectId, userId: principal.userId })).find(
    (target) => target.kind === "agent" && target.name === name,
  );
  if (!found) throw notExposed(name);
  return found;
}

/**
 * The exposure a call names, from its row alone (one query, on every call): the task's run
 * resolves what the environment runs and refuses when it runs nothing; 404 as above otherwise.
 */
export async function exposedAgentEntry(db: Executor, principal: Principal, name: string): Promise<ExposedEntry> {
  const found = await exposedEntry(db, principal.projectId, "agent", name);
  if (!found) throw notExposed(name);
  return found;
}

const notExposed = (name: string) =>
  new NotFoundError(
    `No exposed agent "${name}" in this project: an owner exposes agents in the playground's Connect panel (or PUT /api/exposure)`,
    "agent_not_exposed",
  );

/** The invoke references that run what the environment runs of the exposed agent now. */
export const exposedReferences = (target: Pick<ExposedEntry, "slug" | "environment">) => ({
  workflow: { slug: target.slug },
  environment: { slug: target.environment },
});
