import { asc, lte } from "drizzle-orm";
import { queryWindowTotals, type WindowMap, type WindowTotalsRequest } from "@/server/analytics";
import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { budgetUse } from "@/server/controls";
import { rawQuery, type Transaction } from "@/server/db";
import { monitorAlerts, monitorNotifications, monitors } from "@/server/db/schema";
import { emitEvent } from "@/server/events";
import { alertAttributes, type AlertFacts } from "./alert-message";
import { githubDispatchPayload, slackPayload, teamsPayload } from "./channel-payloads";
import { dueChecks } from "./check-times";
import { isScoreMetric, readMetric, type Reading } from "@/shared/monitor-metrics";
import type { MetricName, ScopeKind } from "./monitor-input";
import type { MonitorRow, StoredChannel } from "./monitor-store";
import { nextState, type Before } from "./next-state";

/** Windows summed per statement (its text is the same for any number): a pass's monitors in one, after downtime a few. */
const WINDOWS_PER_STATEMENT = 2_000;

export const MONITOR_EVENT_TYPES = ["monitors.alert.fired", "monitors.alert.resolved"] as const;

interface Check {
  monitor: MonitorRow;
  at: Date;
  reading?: Reading;
  windowStart?: Date;
  windowEnd?: Date;
}

const metricOf = (m: MonitorRow) =>
  m.metric as { name: MetricName; focus: "run" | "span"; usage_kind?: string; budget_id?: string; evaluator?: string };
const scopeOf = (m: MonitorRow) => m.scope as { kind: ScopeKind; value?: string; label?: string };

/** The one per-kind map a metric reads, if any: the others are left out of the statement. */
function mapsFor(name: MetricName): WindowMap[] {
  if (name.startsWith("latency_p")) return ["latency"];
  if (name.startsWith("ttft_")) return ["ttft"];
  if (name === "tokens") return ["tokens"];
  if (name === "cost") return ["costs"];
  return [];
}

/** The roll-up filter of a scope: one dimension's value, or none for the project. */
function scopeFilter(scope: { kind: ScopeKind; value?: string }): WindowTotalsRequest["filter"] {
  return scope.kind === "project" ? undefined : { field: scope.kind, value: scope.value! };
}

/**
 * One pass: claims monitors whose check time has come (FOR UPDATE SKIP LOCKED: each by one
 * process), checks every instant each owes (missed minutes included, oldest first) from the
 * analytics roll-ups, and in the same transaction records alerts, their events and channel
 * messages, and moves each monitor's state and next check on (the columns keep their first
 * names, `last_evaluated_at` and `next_evaluation_at`). Returns how many checks it made.
 */
export async function checkDueMonitors(app: AppContext, limit: number): Promise<number> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(monitors)
      .where(lte(monitors.nextEvaluationAt, now))
      .orderBy(asc(monitors.nextEvaluationAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (!due.length) return 0;

    const plans = due.map((monitor) => {
      const { instants, next } = dueChecks(monitor.nextEvaluationAt, now);
      return { monitor, next, checks: instants.map((at): Check => ({ monitor, at })) };
    });
    const checks = plans.flatMap((p) => p.checks);
    await readAll(tx, checks);

    const updates: Record<string, unknown>[] = [];
    for (const plan of plans) {
      const m = plan.monitor;
      let before: Before = { state: m.state, stateSince: m.stateSince, lastNotifiedAt: m.lastNotifiedAt };
      let last: Check | undefined;
      for (const e of plan.checks) {
        const muted = m.mutedUntil !== null && m.mutedUntil > e.at;
        const step = nextState(thresholdsOf(m), before, e.reading!, e.at, muted);
        if (step.alert) await recordAlert(app, tx, m, e, step.alert, step.state, before.state, muted);
        before = step;
        last = e;
      }
      updates.push({
        id: m.id,
        state: before.state,
        state_since: before.stateSince.toISOString(),
        last_notified_at: before.lastNotifiedAt?.toISOString() ?? null,
        last_value: last?.reading?.value ?? null,
        last_samples: last?.reading?.samples ?? null,
        last_evaluated_at: last ? last.at.toISOString() : (m.lastEvaluatedAt?.toISOString() ?? null),
        next_evaluation_at: plan.next.toISOString(),
      });
    }
    // Every claimed monitor moves on in one statement.
    await rawQuery(
      tx,
      `update monitors m set state = u.state, state_since = u.state_since, last_notified_at = u.last_notified_at,
        last_value = u.last_value, last_samples = u.last_samples, last_evaluated_at = u.last_evaluated_at,
        next_evaluation_at = u.next_evaluation_at
      from jsonb_to_recordset($1::jsonb) as u(id uuid, state text, state_since timestamptz, last_notified_at timestamptz,
        last_value float8, last_samples int, last_evaluated_at timestamptz, next_evaluation_at timestamptz)
      where m.id = u.id`,
      [JSON.stringify(updates)],
    );
    return checks.length;
  });
}

function thresholdsOf(m: MonitorRow) {
  return {
    operator: m.operator,
    threshold: m.threshold,
    recoveryThreshold: m.recoveryThreshold,
    minSamples: m.minSamples,
    renotifySeconds: m.renotifySeconds,
  };
}

/** Fills each check's reading: analytics windows in few statements, budgets one by one. */
async function readAll(tx: Transaction, checks: Check[]): Promise<void> {
  const analytic = checks.filter((e) => metricOf(e.monitor).name !== "budget_use");
  for (let i = 0; i < analytic.length; i += WINDOWS_PER_STATEMENT) {
    const chunk = analytic.slice(i, i + WINDOWS_PER_STATEMENT);
    const requests: WindowTotalsRequest[] = chunk.map((e) => ({
      projectId: e.monitor.projectId,
      focus: metricOf(e.monitor).focus,
      filter: scopeFilter(scopeOf(e.monitor)),
      oldest: new Date(e.at.getTime() - e.monitor.windowSeconds * 1000),
      newest: e.at,
      maps: mapsFor(metricOf(e.monitor).name),
      ...(isScoreMetric(metricOf(e.monitor).name) ? { scores: { evaluator: metricOf(e.monitor).evaluator! } } : {}),
    }));
    const totals = await queryWindowTotals(tx, requests);
    chunk.forEach((e, j) => {
      const metric = metricOf(e.monitor);
      e.reading = readMetric(metric.name, totals[j].metrics, metric.usage_kind);
      e.windowStart = totals[j].windowStart;
      e.windowEnd = totals[j].windowEnd;
    });
  }
  for (const e of checks.filter((x) => metricOf(x.monitor).name === "budget_use")) {
    const use = await budgetUse(tx, e.monitor.projectId, metricOf(e.monitor).budget_id!, e.at);
    // A deleted budget has nothing to read: no_data.
    e.reading = use ? { value: use.percent, samples: 1 } : { value: null, samples: 0 };
    e.windowStart = use?.windowStart ?? e.at;
    e.windowEnd = e.at;
  }
}

/**
 * Records one alert (once per monitor, instant and kind: a repeat is a no-op) and, unless
 * muted, its event for webhook subscriptions and one message per channel.
 */
async function recordAlert(
  app: AppContext,
  tx: Transaction,
  m: MonitorRow,
  e: Check,
  kind: "fired" | "renotified" | "resolved",
  state: MonitorRow["state"],
  previousState: MonitorRow["state"],
  muted: boolean,
): Promise<void> {
  const reading = e.reading!;
  const [alert] = await tx
    .insert(monitorAlerts)
    .values({
      id: newId(),
      projectId: m.projectId,
      monitorId: m.id,
      kind,
      state,
      previousState,
      value: reading.value,
      threshold: m.threshold,
      samples: reading.samples,
      windowStart: e.windowStart!,
      windowEnd: e.windowEnd!,
      evaluatedAt: e.at,
      muted,
      createdAt: app.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!alert || muted) return;
  const metric = metricOf(m);
  const facts: AlertFacts = {
    alertId: alert.id,
    kind,
    monitor: { id: m.id, name: m.name },
    metric: metric.name,
    focus: metric.focus,
    scope: scopeOf(m),
    operator: m.operator,
    threshold: m.threshold,
    recoveryThreshold: m.recoveryThreshold,
    value: reading.value,
    samples: reading.samples,
    windowSeconds: m.windowSeconds,
    windowStart: alert.windowStart,
    windowEnd: alert.windowEnd,
    evaluatedAt: e.at,
    state,
    baseUrl: app.config.publicUrl,
  };
  await emitEvent(tx, {
    projectId: m.projectId,
    type: kind === "resolved" ? "monitors.alert.resolved" : "monitors.alert.fired",
    attributes: alertAttributes(facts),
  });
  const channels = m.channels as unknown as StoredChannel[];
  if (!channels.length) return;
  await tx.insert(monitorNotifications).values(
    channels.map((c, i) => ({
      id: newId(),
      projectId: m.projectId,
      monitorId: m.id,
      alertId: alert.id,
      channel: i,
      kind: c.kind,
      host: c.host,
      payload:
        c.kind === "slack"
          ? slackPayload(facts)
          : c.kind === "teams"
            ? teamsPayload(facts)
            : githubDispatchPayload(facts, c.event_type ?? "monitor-alert"),
      status: "pending" as const,
      nextAttemptAt: app.now(),
      createdAt: app.now(),
    })),
  );
}
