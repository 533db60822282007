import { and, eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { budgetSpend, budgets } from "@/server/db/schema";
import { budgetWindow } from "./budget-window";
import { storedSpendUsd } from "./spend-store";

export interface BudgetUse {
  name: string;
  limitUsd: number;
  spentUsd: number;
  /** Spent as a percent of the limit (100 is the limit reached). */
  percent: number;
  windowStart: Date;
  resetsAt: Date;
}

/**
 * How much of a project's budget the window holding `at` has spent: what a monitor watches as
 * `budget_use`. Null when the project has no such budget. Reads the spend table, not a cache.
 */
export async function budgetUse(
  db: Executor,
  projectId: string,
  budgetId: string,
  at: Date,
): Promise<BudgetUse | null> {
  const [budget] = await db
    .select()
    .from(budgets)
    .where(and(eq(budgets.id, budgetId), eq(budgets.projectId, projectId)));
  if (!budget) return null;
  const { start, resetsAt } = budgetWindow(budget.window, budget.timeZone, at);
  const [row] = await db
    .select({ usd: storedSpendUsd })
    .from(budgetSpend)
    .where(and(eq(budgetSpend.budgetId, budget.id), eq(budgetSpend.windowStart, start)));
  const spentUsd = row?.usd ?? 0;
  return {
    name: budget.name,
    limitUsd: budget.limitUsd,
    spentUsd,
    percent: budget.limitUsd > 0 ? (spentUsd / budget.limitUsd) * 100 : 0,
    windowStart: start,
    resetsAt,
  };
}
