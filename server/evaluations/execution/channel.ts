import { sql } from "drizzle-orm";
import type { Executor } from "@/server/db";

/** LISTEN/NOTIFY channel that wakes the evaluation workers: cells became due, a run stopped. */
export const EVALUATIONS_CHANNEL = "evaluation_cells";

/** What a notification says: cells became due, or a run stopped (workers abort its cells). */
export type EvaluationsNotice = "due" | "stopped";

/** Delivered when the surrounding transaction commits. */
export async function notifyEvaluationWorkers(db: Executor, notice: EvaluationsNotice = "due"): Promise<void> {
  await db.execute(sql`select pg_notify(${EVALUATIONS_CHANNEL}, ${notice})`);
}
