import { sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "@/server/core/errors";
import { rowsOf, type Executor } from "@/server/db";
import { formatValue, METRIC_LABELS, type MetricName } from "@/shared/monitor-metrics";

/**
 * The monitors a canary names must be the project's, and none may be alerting already: a monitor
 * that is alerting cannot fire until it recovers, so it would guard nothing (409, not a guard that
 * silently never acts). Read from the monitors table directly, as the score guard reads the
 * evaluation tables (README: why).
 */
export async function checkMonitorGuard(db: Executor, projectId: string, monitorIds: string[]): Promise<void> {
  const ids = [...new Set(monitorIds)];
  const found = rowsOf<{ id: string; name: string; state: string }>(
    await db.execute(sql`
      select id, name, state from monitors
      where project_id = ${projectId} and id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`),
  );
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

interface Fired {
  name: string;
  metric: { name: MetricName };
  operator: "above" | "below";
  value: number | null;
  threshold: number;
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
  const [fired] = rowsOf<Fired>(
    await db.execute(sql`
      select m.name, m.metric, m.operator, a.value, coalesce(a.threshold, m.threshold) as threshold
      from monitors m
      left join lateral (
        select value, threshold, created_at from monitor_alerts
        where monitor_id = m.id and kind = 'fired' order by evaluated_at desc limit 1
      ) a on true
      where m.project_id = ${projectId} and m.id in (${sql.join(
        monitorIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and (m.state = 'alerting' or a.created_at >= ${since.toISOString()})
      order by m.name limit 1`),
  );
  if (!fired) return undefined;
  const metric = fired.metric.name;
  const label = METRIC_LABELS[metric] ?? metric;
  const value = fired.value === null ? "no data" : formatValue(metric, Number(fired.value));
  return `monitor "${fired.name}" fired: ${label} ${value}, ${fired.operator} the threshold ${formatValue(metric, Number(fired.threshold))}`;
}
