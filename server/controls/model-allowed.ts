import { and, eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { modelAllowlists } from "@/server/db/schema";
import { refusingRule, type AllowlistRule } from "./model-allowlist";

/**
 * The project's allowlist rule that refuses `provider/model`, or undefined: the check `checkTurn`
 * makes for a turn with no API key (a worker acting for the project), made ahead of the call by
 * work that plans its models before running them (an optimization's parameter sweep refuses a
 * model at the start rather than failing a round later). Read from the database, not the cache.
 */
export async function projectModelRefusal(
  db: Executor,
  projectId: string,
  model: string,
): Promise<AllowlistRule | undefined> {
  const rows = await db
    .select({ patterns: modelAllowlists.patterns })
    .from(modelAllowlists)
    .where(and(eq(modelAllowlists.projectId, projectId), eq(modelAllowlists.scope, "project")));
  return refusingRule(
    model,
    rows.map((row) => ({ owner: "the project's model allowlist", patterns: row.patterns })),
  );
}
