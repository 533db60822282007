import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/server/db";
import type { MetricName } from "@/shared/monitor-metrics";

/**
 * Reads of the monitors' tables for other areas (a canary's monitor guard), which may not name
 * them themselves: which named monitors exist and how they stand, and which of them fired since a
 * time.
 */

export interface MonitorState {
  id: string;
  name: string;
  state: string;
}

/** The monitors of the project among `ids`, with their state (`ok`, `alerting`, ...). */
export async function monitorStates(db: Executor, projectId: string, ids: string[]): Promise<MonitorState[]> {
  if (ids.length === 0) return [];
  return rowsOf<MonitorState>(
    await db.execute(sql`
      select id, name, state from monitors
      where project_id = ${projectId} and id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`),
  );
}

export interface MonitorFiring {
  name: string;
  metric: { name: MetricName };
  operator: "above" | "below";
  /** The firing alert's value (null: no data), or null when the monitor is alerting without a recorded alert since. */
  value: number | null;
  threshold: number;
}

/**
 * The first (by name) of the named monitors that recorded a `fired` alert since `since` (muted or
 * not: a mute silences messages, not the alert), or is alerting now; with the firing alert's value
 * and threshold. Undefined while none did.
 */
export async function firingSince(
  db: Executor,
  projectId: string,
  ids: string[],
  since: Date,
): Promise<MonitorFiring | undefined> {
  if (ids.length === 0) return undefined;
  const [fired] = rowsOf<MonitorFiring>(
    await db.execute(sql`
      select m.name, m.metric, m.operator, a.value, coalesce(a.threshold, m.threshold) as threshold
      from monitors m
      left join lateral (
        select value, threshold, created_at from monitor_alerts
        where monitor_id = m.id and kind = 'fired' order by evaluated_at desc limit 1
      ) a on true
      where m.project_id = ${projectId} and m.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and (m.state = 'alerting' or a.created_at >= ${since.toISOString()})
      order by m.name limit 1`),
  );
  return fired;
}
