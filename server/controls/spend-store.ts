import { and, eq, or, sql } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { budgetSpend } from "@/server/db/schema";
import { emitEvent } from "@/server/events";
import type { BudgetRow } from "./control-rows";
import { plusUsd, warnLevelUsd } from "./decimal-usd";
import type { TallyStore, TallyTotal } from "./shared-tally";

export const BUDGET_EVENT_TYPES = ["budgets.warning.reached", "budgets.limit.reached"] as const;

/** What a batch of spend needs to be written: the budget and its window. */
export interface SpendMeta {
  budget: BudgetRow;
  start: Date;
  resetsAt: Date;
}

/**
 * A window's spend as stored (a double), read back through numeric: its 15 significant digits
 * give the decimal a sum of doubles missed (0.05399999999999999 is read as 0.054).
 */
export const storedSpendUsd = sql<number>`${budgetSpend.spentUsd}::numeric::float8`.mapWith(Number);

/** The tally key of a budget's window. */
export const spendKey = (budgetId: string, windowStart: Date) => `${budgetId}|${windowStart.getTime()}`;

/**
 * `budget_spend` as a tally store. A batch is one transaction: one upsert per budget window,
 * each returning its total, and the events the batch causes. The batch whose amount carries a
 * window across its warning level or its limit emits `budgets.warning.reached` /
 * `budgets.limit.reached` in that transaction (outbox); the returned totals tell exactly one
 * batch of all the processes' that it crossed.
 */
export function spendStore(app: Pick<AppContext, "db" | "now">): TallyStore<SpendMeta> {
  return {
    async add(items) {
      const now = app.now();
      return app.db.transaction(async (tx) => {
        const totals = new Map<string, TallyTotal>();
        for (const { key, amount, meta } of items) {
          const { budget, start, resetsAt } = meta;
          const [row] = await tx
            .insert(budgetSpend)
            .values({ budgetId: budget.id, windowStart: start, spentUsd: amount })
            .onConflictDoUpdate({
              target: [budgetSpend.budgetId, budgetSpend.windowStart],
              // Added as numeric, the decimal sum the process keeps (decimal-usd.ts).
              set: { spentUsd: sql`(${budgetSpend.spentUsd}::numeric + ${String(amount)}::numeric)::float8` },
            })
            .returning({ usd: budgetSpend.spentUsd });
          const before = plusUsd(row.usd, -amount);
          const warnAt = warnLevelUsd(budget);
          for (const [type, threshold] of [
            [BUDGET_EVENT_TYPES[0], warnAt],
            [BUDGET_EVENT_TYPES[1], budget.limitUsd],
          ] as const) {
            if (before < threshold && row.usd >= threshold)
              await emitEvent(
                tx,
                {
                  projectId: budget.projectId,
                  type,
                  attributes: budgetEventAttributes(budget, row.usd, start, resetsAt),
                },
                now,
              );
          }
          totals.set(key, { value: row.usd });
        }
        return totals;
      });
    },
    async read(keys) {
      const windows = keys.map((key) => {
        const [budgetId, start] = key.split("|");
        return and(eq(budgetSpend.budgetId, budgetId), eq(budgetSpend.windowStart, new Date(Number(start))));
      });
      const rows = await app.db
        .select({ budgetId: budgetSpend.budgetId, start: budgetSpend.windowStart, usd: storedSpendUsd })
        .from(budgetSpend)
        .where(or(...windows));
      return new Map(rows.map((row) => [spendKey(row.budgetId, row.start), { value: row.usd }]));
    },
  };
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
