import type { budgets, modelAliases, modelAllowlists, modelRateLimits } from "@/server/db/schema";

export type BudgetRow = typeof budgets.$inferSelect;
export type RateLimitRow = typeof modelRateLimits.$inferSelect;
export type AllowlistRow = typeof modelAllowlists.$inferSelect;
export type AliasRow = typeof modelAliases.$inferSelect;

/** The rows a project set, kept by the controls cache (controls-cache.ts). */
export interface ProjectRows {
  budgets: BudgetRow[];
  rateLimits: RateLimitRow[];
  allowlists: AllowlistRow[];
  aliases: AliasRow[];
}
