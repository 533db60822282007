import type { Principal } from "@/server/auth";
import type { Executor } from "@/server/db";
import { listAgents } from "@/server/domains/workflows/agents";

export interface ModelEntry {
  id: string;
  object: "model";
  /** Unix seconds: when the agent was created. */
  created: number;
  owned_by: string;
}

const PAGE = 500;

/** `GET /v1/models`: every agent of the key's project, then each environment that runs it under its own key (`<slug>.revision`, what `<agent>@<environment>` reads). */
export async function listModels(db: Executor, principal: Principal): Promise<{ object: "list"; data: ModelEntry[] }> {
  const data: ModelEntry[] = [];
  let next: string | undefined;
  do {
    const page = await listAgents(db, { projectId: principal.projectId, userId: principal.userId }, { windowing: { limit: PAGE, next, order: "ascending" } });
    for (const { artifact, deployments } of page.items) {
      const entry = (id: string): ModelEntry => ({ id, object: "model", created: Math.floor(artifact.createdAt.getTime() / 1000), owned_by: principal.projectId });
      data.push(entry(artifact.slug));
      for (const environment of new Set(deployments.filter((d) => d.key === `${artifact.slug}.revision`).map((d) => d.environment))) data.push(entry(`${artifact.slug}@${environment}`));
    }
    next = page.next;
  } while (next);
  return { object: "list", data };
}
