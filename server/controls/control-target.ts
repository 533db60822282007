import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError } from "@/server/core/errors";
import { apiKeys, artifacts } from "@/server/db/schema";

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
      ? await app.db
          .select({ id: apiKeys.id })
          .from(apiKeys)
          .where(and(eq(apiKeys.id, targetId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
      : await app.db
          .select({ id: artifacts.id })
          .from(artifacts)
          .where(
            and(
              eq(artifacts.id, targetId),
              eq(artifacts.projectId, projectId),
              eq(artifacts.domain, "workflows"),
              isNull(artifacts.deletedAt),
            ),
          );
  if (!found.length)
    throw new BadRequestError(
      `target_id ${targetId} names no ${scope === "agent" ? "agent (workflow)" : "active API key"} of this project`,
      "unknown_target",
    );
}
