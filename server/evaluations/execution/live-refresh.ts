import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { tickLiveRuns, type TickResult } from "./live-ticks";

/**
 * `POST /api/admin/evaluations/runs/refresh` (reference §1.2): one tick over [trigger −
 * interval, trigger]. `failure` when some run could not be ticked (its window is retried by the
 * next tick), `error` when the tick itself failed.
 */
export async function refreshLiveRuns(
  db: Database,
  trigger: Date,
  intervalMinutes: number,
): Promise<{ status: "success" | "failure" | "error" } & Partial<TickResult>> {
  try {
    const result = await tickLiveRuns(db, trigger, intervalMinutes);
    return { status: result.failed > 0 ? "failure" : "success", ...result };
  } catch (error) {
    logger.error({ err: error }, "live evaluation refresh failed");
    return { status: "error" };
  }
}
