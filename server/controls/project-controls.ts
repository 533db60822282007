import { eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { budgets, modelAliases, modelAllowlists, modelRateLimits } from "@/server/db/schema";
import { controlsState } from "./controls-state";

import type { ProjectRows } from "./control-rows";

type App = Pick<AppContext, "db" | "dbKind" | "now" | "config">;

/** Everything a project set: what `checkTurn` reads on every turn, from memory unless it changed. */
export async function projectControls(app: App, projectId: string): Promise<ProjectRows> {
  const { rows } = controlsState(app);
  const now = app.now().getTime();
  const cached = rows.get(projectId, now);
  if (cached) return cached;
  const ticket = rows.ticket();
  const [b, r, a, m] = await Promise.all([
    app.db.select().from(budgets).where(eq(budgets.projectId, projectId)),
    app.db.select().from(modelRateLimits).where(eq(modelRateLimits.projectId, projectId)),
    app.db.select().from(modelAllowlists).where(eq(modelAllowlists.projectId, projectId)),
    app.db.select().from(modelAliases).where(eq(modelAliases.projectId, projectId)),
  ]);
  const controls = { budgets: b, rateLimits: r, allowlists: a, aliases: m };
  rows.set(projectId, controls, now, ticket);
  return controls;
}

/** Called by every write of a project's controls on this instance, once it committed. */
export function forgetControls(app: App, projectId: string): void {
  controlsState(app).rows.forget(projectId);
}
