import { z } from "zod";
import { budgetSpend, budgets } from "@/server/db/schema";
import { spentInWindow } from "./budget-spend";
import { budgetWindow, isTimeZone } from "./budget-window";
import { checkTarget } from "./control-target";
import type { ControlResource } from "./control-resource";
import type { BudgetRow } from "./control-rows";
import { spentBefore } from "./window-spend-so-far";

export const budgetInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scope: z.enum(["project", "agent", "api_key"]),
  target_id: z.string().uuid().nullish().describe("The agent's (workflow) or API key's id; absent for scope project"),
  window: z.enum(["day", "week", "month"]).describe("A calendar day, a week from Monday, or a calendar month"),
  time_zone: z
    .string()
    .refine(isTimeZone, { message: "not an IANA time zone name (e.g. Europe/Paris, UTC)" })
    .default("UTC"),
  limit_usd: z.number().positive().max(1e9),
  warn_percent: z.number().int().min(1).max(100).default(80).describe("The warning level, in percent of the limit"),
});
export type BudgetInput = z.infer<typeof budgetInput>;

export const budgetWire = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scope: z.enum(["project", "agent", "api_key"]),
  target_id: z.string().uuid().optional(),
  window: z.enum(["day", "week", "month"]),
  time_zone: z.string(),
  limit_usd: z.number(),
  warn_percent: z.number().int(),
  spent_usd: z.number().describe("Spent in the current window"),
  window_start: z.iso.datetime(),
  resets_at: z.iso.datetime(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type BudgetWire = z.infer<typeof budgetWire>;

/** Budgets with their current window's spend (`/api/controls/budgets/`). */
export const budgetsResource: ControlResource<BudgetInput, BudgetRow, BudgetWire> = {
  path: "budgets",
  entity: "budget",
  notFoundCode: "budget_not_found",
  entities: "budgets",
  label: "budget",
  table: budgets,
  input: budgetInput,
  wire: budgetWire,
  async values(app, projectId, input) {
    await checkTarget(app, projectId, input.scope, input.target_id);
    return {
      name: input.name,
      scope: input.scope,
      targetId: input.target_id ?? null,
      window: input.window,
      timeZone: input.time_zone,
      limitUsd: input.limit_usd,
      warnPercent: input.warn_percent,
    };
  },
  async toWire(app, rows) {
    return Promise.all(
      rows.map(async (row) => {
        const { start, resetsAt } = budgetWindow(row.window, row.timeZone, app.now());
        return {
          id: row.id,
          name: row.name,
          scope: row.scope,
          ...(row.targetId ? { target_id: row.targetId } : {}),
          window: row.window,
          time_zone: row.timeZone,
          limit_usd: row.limitUsd,
          warn_percent: row.warnPercent,
          spent_usd: await spentInWindow(app, row),
          window_start: start.toISOString(),
          resets_at: resetsAt.toISOString(),
          created_at: row.createdAt.toISOString(),
          updated_at: row.updatedAt.toISOString(),
        };
      }),
    );
  },
  conflict: () => "A budget with these values already exists",
  /** The window's spend before the budget existed counts: a budget made at noon has the morning's spend. */
  async created(tx, app, row) {
    const now = app.now();
    const { start } = budgetWindow(row.window, row.timeZone, now);
    const usd = await spentBefore(tx, row, start, now);
    if (usd > 0) await tx.insert(budgetSpend).values({ budgetId: row.id, windowStart: start, spentUsd: usd });
  },
};
