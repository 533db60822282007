import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "@/server/db";
import { evaluationResults } from "@/server/db/schema";
import type { MetricsRow } from "../model/rows";
import { findRunOutline } from "../store/run-store";
import { refreshMetrics, refreshTemporalMetrics } from "./refresh-metrics";

/**
 * `POST /metrics/refresh`: `run_ids` (each run's global row) wins over `run_id` with
 * `scenario_ids` (those scenarios' rows) or `scenario_id`, over `run_id` with `timestamps` or
 * `timestamp` (those time windows' rows, for the windows that have cells), over `run_id` alone
 * (its global row). Nothing without a run; a closed run persists nothing, as in the reference
 * implementation.
 */
export async function refreshMetricsQuery(
  db: Database,
  projectId: string,
  query: {
    run_id?: string | null;
    run_ids?: string[] | null;
    scenario_id?: string | null;
    scenario_ids?: string[] | null;
    timestamp?: string | null;
    timestamps?: string[] | boolean | null;
    interval?: number | null;
  },
): Promise<MetricsRow[]> {
  const out: MetricsRow[] = [];
  const runIds = query.run_ids?.length ? query.run_ids : query.run_id ? [query.run_id] : [];
  const scenarios = query.run_ids?.length
    ? []
    : [...(query.scenario_ids ?? []), ...(query.scenario_id ? [query.scenario_id] : [])];
  const windows =
    query.run_ids?.length || scenarios.length
      ? []
      : [...(Array.isArray(query.timestamps) ? query.timestamps : []), ...(query.timestamp ? [query.timestamp] : [])];
  for (const runId of runIds) {
    const run = await findRunOutline(db, projectId, runId);
    if (!run || run.flags.is_closed || (run.data as { steps?: unknown[] }).steps?.length === 0) continue;
    if (scenarios.length) for (const scenarioId of scenarios) out.push(await refreshMetrics(db, run, scenarioId));
    else if (windows.length || query.timestamps === true)
      for (const at of windows.length ? windows.map((w) => new Date(w)) : await windowsOf(db, run.id)) {
        const row = await refreshTemporalMetrics(db, run, at, query.interval ?? undefined);
        if (row) out.push(row);
      }
    else out.push(await refreshMetrics(db, run));
  }
  return out;
}

/** The starts of the time windows a run has cells in. */
async function windowsOf(db: Database, runId: string): Promise<Date[]> {
  const rows = await db
    .selectDistinct({ at: evaluationResults.timestamp })
    .from(evaluationResults)
    .where(and(eq(evaluationResults.runId, runId), isNotNull(evaluationResults.timestamp)));
  return rows.map((row) => row.at!);
}
