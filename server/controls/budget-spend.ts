import type { AppContext } from "@/server/core/app-context";
import { budgetWindow } from "./budget-window";
import { controlsState } from "./controls-state";
import type { BudgetRow } from "./control-rows";
import { warnLevelUsd } from "./decimal-usd";
import { spendKey } from "./spend-store";

type App = Pick<AppContext, "db" | "dbKind" | "now" | "config">;

/** What the budget's current window has spent (USD), as this process knows it (shared-tally.ts). */
export async function spentInWindow(app: App, budget: BudgetRow): Promise<number> {
  const { start } = budgetWindow(budget.window, budget.timeZone, app.now());
  return (await controlsState(app).spend.value(spendKey(budget.id, start))).value;
}

/**
 * Adds a model step's cost to each budget's current window, in memory; the next sync writes it
 * (spend-store.ts). A step that carries a window across its warning level or its limit, as this
 * process sees it, writes at once, so the event is emitted with the step. Returns the budgets
 * now spent.
 */
export async function recordSpend(app: App, applicable: BudgetRow[], costUsd: number): Promise<BudgetRow[]> {
  const tally = controlsState(app).spend;
  const now = app.now();
  const spent: BudgetRow[] = [];
  let crossed = false;
  for (const budget of applicable) {
    const { start, resetsAt } = budgetWindow(budget.window, budget.timeZone, now);
    const key = spendKey(budget.id, start);
    const { value, before } =
      costUsd > 0
        ? tally.add(key, costUsd, { budget, start, resetsAt })
        : { value: (await tally.value(key)).value, before: 0 };
    const warnAt = warnLevelUsd(budget);
    if (costUsd > 0 && [warnAt, budget.limitUsd].some((level) => before < level && value >= level)) crossed = true;
    if (value >= budget.limitUsd) spent.push(budget);
  }
  if (crossed) await tally.sync();
  return spent;
}
