import { rawQuery, type Executor } from "@/server/db";
import { spanDimensionsSql, spanFactsSql, spanRowsSql } from "@/server/tracing";
import type { BudgetRow } from "./control-rows";

/**
 * What the budget's scope spent in its current window before the budget existed: the runs'
 * recorded costs (the root spans' cumulative total) from the window's start to `until`. A budget
 * made at noon counts the morning, as Analytics shows it; spend after creation is counted step by
 * step (budget-spend.ts). Read from the spans once, when the budget is made (not on any turn's
 * path). Runs whose spans are ingested after this read are not counted: a few seconds of spend.
 */
export async function spentBefore(
  db: Executor,
  budget: Pick<BudgetRow, "projectId" | "scope" | "targetId">,
  windowStart: Date,
  until: Date,
): Promise<number> {
  const dimensions = spanDimensionsSql("s");
  const where =
    budget.scope === "agent"
      ? [`${dimensions.agent} = $4`]
      : budget.scope === "api_key"
        ? [`${dimensions.api_key} = $4`]
        : [];
  const total = `coalesce(sum((${spanFactsSql("s").runCosts} ->> 'total')::numeric), 0)::text as usd`;
  const text = spanRowsSql("s", total, {
    project: "$1::uuid",
    from: "$2::timestamptz",
    to: "$3::timestamptz",
    only: "runs",
    where,
  });
  const params = [budget.projectId, windowStart.toISOString(), until.toISOString()];
  const [row] = await rawQuery<{ usd: string }>(
    db,
    text,
    budget.scope === "project" ? params : [...params, budget.targetId],
  );
  return Number(row?.usd ?? 0);
}
