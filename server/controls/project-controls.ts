import { eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { budgets, modelAliases, modelAllowlists, modelRateLimits } from "@/server/db/schema";
import { projectPrices, type PriceOverride } from "@/server/pricing";
import { controlsState } from "./controls-state";

import type { ProjectRows } from "./control-rows";

type App = Pick<AppContext, "db" | "dbKind" | "now" | "config">;

/**
 * How long the project's own prices are used before they are read again, in the background:
 * pricing's writes announce nothing, so a changed price counts within this time.
 */
export const PRICES_READ_MS = 1_000;

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

/**
 * The project's own model prices (server/pricing), for costing a step: read once, then read again
 * in the background when older than `PRICES_READ_MS` (the older ones serve meanwhile).
 */
export async function pricesOf(app: App, projectId: string): Promise<PriceOverride[]> {
  const cached = controlsState(app).prices.get(projectId);
  if (!cached) return readPrices(app, projectId);
  const now = performance.now();
  if (now - cached.readAt > PRICES_READ_MS) {
    cached.readAt = now;
    readPrices(app, projectId).catch(() => undefined);
  }
  return cached.prices;
}

async function readPrices(app: App, projectId: string): Promise<PriceOverride[]> {
  const list = await projectPrices(app.db, projectId);
  controlsState(app).prices.set(projectId, { prices: list, readAt: performance.now() });
  return list;
}

/** Called by every write of a project's controls on this instance, once it committed. */
export function forgetControls(app: App, projectId: string): void {
  controlsState(app).rows.forget(projectId);
}
