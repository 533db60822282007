import { ConflictError, NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { firingSince, monitorStates } from "@/server/monitors";
import { formatValue, METRIC_LABELS } from "@/shared/monitor-metrics";

/**
 * The monitors a canary names must be the project's, and none may be alerting already: a monitor
 * that is alerting cannot fire until it recovers, so it would guard nothing (409, not a guard that
 * silently never acts). Read through the monitors area (README: why the guard reads rather than
 * reacts to the monitors' event).
 */
export async function checkMonitorGuard(db: Executor, projectId: string, monitorIds: string[]): Promise<void> {
  const ids = [...new Set(monitorIds)];
  const found = await monitorStates(db, projectId, ids);
  const missing = ids.filter((id) => !found.some((m) => m.id === id));
  if (missing.length)
    throw new NotFoundError(`monitor ${missing.join(", ")} not found in this project`, "monitor_not_found");
  const alerting = found.filter((m) => m.state === "alerting");
  if (alerting.length)
    throw new ConflictError(
      `monitor ${alerting.map((m) => `"${m.name}"`).join(", ")} is alerting now, so it could not fire during the canary; wait until it resolves or leave it out of the guards`,
      "monitor_alerting",
    );
}

/**
 * Why the canary must roll back because of its monitors, or undefined while none fired: a named
 * monitor recorded a `fired` alert since the canary started (muted or not: muting silences
 * messages, not the guard), or is alerting now (it fired while the start was committing). The
 * value and threshold are the firing alert's.
 */
export async function firedMonitor(
  db: Executor,
  projectId: string,
  monitorIds: string[],
  since: Date,
): Promise<string | undefined> {
  const fired = await firingSince(db, projectId, monitorIds, since);
  if (!fired) return undefined;
  const metric = fired.metric.name;
  const label = METRIC_LABELS[metric] ?? metric;
  const value = fired.value === null ? "no data" : formatValue(metric, Number(fired.value));
  return `monitor "${fired.name}" fired: ${label} ${value}, ${fired.operator} the threshold ${formatValue(metric, Number(fired.threshold))}`;
}
