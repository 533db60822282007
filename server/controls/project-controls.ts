import { eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { budgets, modelAliases, modelAllowlists, modelRateLimits } from "@/server/db/schema";
import type { Database } from "@/server/db";
import { projectPrices, type PriceOverride } from "@/server/pricing";

export type BudgetRow = typeof budgets.$inferSelect;
export type RateLimitRow = typeof modelRateLimits.$inferSelect;
export type AllowlistRow = typeof modelAllowlists.$inferSelect;
export type AliasRow = typeof modelAliases.$inferSelect;

/** Everything a project set: what `checkTurn` reads on every turn. */
export interface ProjectControls {
  budgets: BudgetRow[];
  rateLimits: RateLimitRow[];
  allowlists: AllowlistRow[];
  aliases: AliasRow[];
  /** The project's own model prices (server/pricing), read only when it has a budget. */
  prices: PriceOverride[];
}

/**
 * How long an instance trusts its copy of a project's settings. A change made on this instance
 * is seen at once (the writer drops the copy); another instance sees it within this time.
 */
export const CONTROLS_CACHE_MS = 1_000;

const caches = new WeakMap<Database, Map<string, { controls: ProjectControls; loadedAt: number }>>();

function cacheOf(db: Database) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

export async function projectControls(app: Pick<AppContext, "db">, projectId: string): Promise<ProjectControls> {
  const cache = cacheOf(app.db);
  const cached = cache.get(projectId);
  const now = performance.now();
  if (cached && now - cached.loadedAt < CONTROLS_CACHE_MS) return cached.controls;
  const [b, r, a, m] = await Promise.all([
    app.db.select().from(budgets).where(eq(budgets.projectId, projectId)),
    app.db.select().from(modelRateLimits).where(eq(modelRateLimits.projectId, projectId)),
    app.db.select().from(modelAllowlists).where(eq(modelAllowlists.projectId, projectId)),
    app.db.select().from(modelAliases).where(eq(modelAliases.projectId, projectId)),
  ]);
  const prices = b.length ? await projectPrices(app.db, projectId) : [];
  const controls = { budgets: b, rateLimits: r, allowlists: a, aliases: m, prices };
  cache.set(projectId, { controls, loadedAt: now });
  return controls;
}

/** Called by every write of a project's controls on this instance. */
export function forgetControls(app: Pick<AppContext, "db">, projectId: string): void {
  cacheOf(app.db).delete(projectId);
}
