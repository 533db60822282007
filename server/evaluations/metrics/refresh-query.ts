import type { Database } from "@/server/db";
import type { MetricsRow } from "../model/rows";
import { findRunOutline } from "../store/run-store";
import { refreshMetrics } from "./refresh-metrics";

/**
 * `POST /metrics/refresh`: `run_ids` (each run's global row) wins over `run_id` with
 * `scenario_ids` (those scenarios' rows) or `scenario_id`, over `run_id` alone (its global row).
 * Nothing without a run; a closed run persists nothing, as in the reference implementation.
 */
export async function refreshMetricsQuery(
  db: Database,
  projectId: string,
  query: {
    run_id?: string | null;
    run_ids?: string[] | null;
    scenario_id?: string | null;
    scenario_ids?: string[] | null;
  },
): Promise<MetricsRow[]> {
  const out: MetricsRow[] = [];
  const runIds = query.run_ids?.length ? query.run_ids : query.run_id ? [query.run_id] : [];
  const scenarios = query.run_ids?.length
    ? []
    : [...(query.scenario_ids ?? []), ...(query.scenario_id ? [query.scenario_id] : [])];
  for (const runId of runIds) {
    const run = await findRunOutline(db, projectId, runId);
    if (!run || run.flags.is_closed || (run.data as { steps?: unknown[] }).steps?.length === 0) continue;
    if (scenarios.length) for (const scenarioId of scenarios) out.push(await refreshMetrics(db, run, scenarioId));
    else out.push(await refreshMetrics(db, run));
  }
  return out;
}
