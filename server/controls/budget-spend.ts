import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { budgetSpend } from "@/server/db/schema";
import { emitEvent } from "@/server/events";
import { budgetWindow } from "./budget-window";
import { controlsState } from "./controls-state";
import type { BudgetRow } from "./project-controls";

type App = Pick<AppContext, "db" | "dbKind" | "now">;

/** How long an instance trusts a window's spend it read; its own writes update it at once. */
export const SPEND_CACHE_MS = 1_000;

export const BUDGET_EVENT_TYPES = ["budgets.warning.reached", "budgets.limit.reached"] as const;

const cacheKey = (budgetId: string, windowStart: Date) => `${budgetId}|${windowStart.getTime()}`;

/** What the budget's current window has spent (USD). */
export async function spentInWindow(app: App, budget: BudgetRow): Promise<number> {
  const { start } = budgetWindow(budget.window, budget.timeZone, app.now());
  const cache = controlsState(app).spend;
  const key = cacheKey(budget.id, start);
  const cached = cache.get(key);
  const now = performance.now();
  if (cached && now - cached.readAt < SPEND_CACHE_MS) return cached.usd;
  const [row] = await app.db
    .select({ usd: budgetSpend.spentUsd })
    .from(budgetSpend)
    .where(and(eq(budgetSpend.budgetId, budget.id), eq(budgetSpend.windowStart, start)));
  const usd = row?.usd ?? 0;
  cache.set(key, { usd, readAt: now });
  return usd;
}

/**
 * Adds a model step's cost to each budget's current window, in one transaction with the events it
 * causes: the step whose cost carries a window across its warning level, or across its limit,
 * emits `budgets.warning.reached` / `budgets.limit.reached`. Each row's update returns its own
 * total, so of two concurrent steps exactly one sees the crossing. Returns the budgets now spent.
 */
export async function recordSpend(app: App, applicable: BudgetRow[], costUsd: number): Promise<BudgetRow[]> {
  if (!(costUsd > 0) || !applicable.length) return applicable.filter((b) => isSpent(app, b));
  const now = app.now();
  const totals = await app.db.transaction(async (tx) => {
    const out: Array<{ budget: BudgetRow; usd: number; start: Date }> = [];
    for (const budget of applicable) {
      const { start, resetsAt } = budgetWindow(budget.window, budget.timeZone, now);
      const [row] = await tx
        .insert(budgetSpend)
        .values({ budgetId: budget.id, windowStart: start, spentUsd: costUsd })
        .onConflictDoUpdate({
          target: [budgetSpend.budgetId, budgetSpend.windowStart],
          set: { spentUsd: sql`${budgetSpend.spentUsd} + ${costUsd}` },
        })
        .returning({ usd: budgetSpend.spentUsd });
      const before = row.usd - costUsd;
      const warnAt = (budget.limitUsd * budget.warnPercent) / 100;
      for (const [level, threshold] of [
        ["warning", warnAt],
        ["limit", budget.limitUsd],
      ] as const) {
        if (before < threshold && row.usd >= threshold)
          await emitEvent(
            tx,
            {
              projectId: budget.projectId,
              type: level === "warning" ? BUDGET_EVENT_TYPES[0] : BUDGET_EVENT_TYPES[1],
              attributes: budgetEventAttributes(budget, row.usd, start, resetsAt),
            },
            now,
          );
      }
      out.push({ budget, usd: row.usd, start });
    }
    return out;
  });
  const cache = controlsState(app).spend;
  const readAt = performance.now();
  for (const { budget, usd, start } of totals) cache.set(cacheKey(budget.id, start), { usd, readAt });
  return totals.filter(({ budget, usd }) => usd >= budget.limitUsd).map(({ budget }) => budget);
}

function isSpent(app: App, budget: BudgetRow): boolean {
  const { start } = budgetWindow(budget.window, budget.timeZone, app.now());
  const cached = controlsState(app).spend.get(cacheKey(budget.id, start));
  return cached !== undefined && cached.usd >= budget.limitUsd;
}

function budgetEventAttributes(budget: BudgetRow, spentUsd: number, start: Date, resetsAt: Date) {
  return {
    budget: {
      id: budget.id,
      name: budget.name,
      scope: budget.scope,
      ...(budget.targetId ? { target_id: budget.targetId } : {}),
      window: budget.window,
      time_zone: budget.timeZone,
      limit_usd: budget.limitUsd,
      warn_percent: budget.warnPercent,
    },
    spent_usd: spentUsd,
    window_start: start.toISOString(),
    resets_at: resetsAt.toISOString(),
  };
}
