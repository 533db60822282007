import { isActiveApiKey } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError } from "@/server/core/errors";
import { artifactNames } from "@/server/versioning";

/**
 * A control's `target_id` must name an API key or an agent (workflow) of the caller's project;
 * a project-wide control names none. For rate limits a missing target means "each key" or
 * "each agent" (`eachAllowed`).
 */
export async function checkTarget(
  app: Pick<AppContext, "db">,
  projectId: string,
  scope: string,
  targetId: string | null | undefined,
  eachAllowed = false,
): Promise<void> {
  if (scope === "project") {
    if (targetId)
      throw new BadRequestError("A project-wide control names no target_id; remove it", "unexpected_target");
    return;
  }
  if (!targetId) {
    if (eachAllowed) return;
    throw new BadRequestError(
      `scope ${scope} needs target_id: the ${scope === "agent" ? "agent's (workflow) id" : "API key's id"}`,
      "missing_target",
    );
  }
  const found =
    scope === "api_key"
      ? await isActiveApiKey(app.db, projectId, targetId)
      : (await artifactNames(app.db, projectId, [targetId], "workflows")).some((agent) => !agent.deletedAt);
  if (!found)
    throw new BadRequestError(
      `target_id ${targetId} names no ${scope === "agent" ? "agent (workflow)" : "active API key"} of this project`,
      "unknown_target",
    );
}
