import { sql } from "drizzle-orm";
import type { Executor } from "@/server/db";

/** LISTEN/NOTIFY channel that wakes the evaluation workers: cells became due, a run stopped. */
export const EVALUATIONS_CHANNEL = "evaluation_cells";

/** Delivered when the surrounding transaction commits. */
export async function notifyEvaluationWorkers(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${EVALUATIONS_CHANNEL}, '')`);
}
