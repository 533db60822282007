import type { MonitorState } from "@/server/db/schema";
import type { Reading } from "@/shared/monitor-metrics";

export interface Thresholds {
  operator: "above" | "below";
  threshold: number;
  recoveryThreshold: number;
  minSamples: number;
  renotifySeconds: number | null;
}

export interface Before {
  state: MonitorState;
  stateSince: Date;
  lastNotifiedAt: Date | null;
}

export type AlertKind = "fired" | "renotified" | "resolved";

export interface Step {
  state: MonitorState;
  stateSince: Date;
  lastNotifiedAt: Date | null;
  /** What to record (and, unless muted, notify) at this check. */
  alert: AlertKind | null;
}

/**
 * One check of a monitor at `at`. Too few samples is `no_data`. A value past the threshold
 * enters `alerting` (fires); an alerting monitor stays so until the value is back past the
 * recovery threshold (hysteresis: a value hovering at the threshold does not flap), then
 * resolves. Leaving `alerting` for `no_data` resolves too. While alerting, it notifies again
 * once `renotifySeconds` have passed since the last notification, or at the first unmuted
 * check of an alert that has not been notified (it fired while muted). Muted checks
 * record fired and resolved but notify nothing, so they do not count as notified. Pure.
 */
export function nextState(t: Thresholds, before: Before, reading: Reading, at: Date, muted: boolean): Step {
  const { value, samples } = reading;
  const hasData = value !== null && samples >= t.minSamples;
  const breached = hasData && (t.operator === "above" ? value > t.threshold : value < t.threshold);
  const recovered = hasData && (t.operator === "above" ? value <= t.recoveryThreshold : value >= t.recoveryThreshold);
  const notified = (kind: AlertKind, state: MonitorState, since: Date): Step => ({
    state,
    stateSince: since,
    lastNotifiedAt: muted ? before.lastNotifiedAt : at,
    alert: kind,
  });

  if (before.state === "alerting") {
    if (!hasData) return notified("resolved", "no_data", at);
    if (recovered) return notified("resolved", "ok", at);
    if (muted) return { ...before, alert: null };
    const last = before.lastNotifiedAt;
    const notifiedThisAlert = last !== null && last >= before.stateSince;
    const due =
      !notifiedThisAlert || (t.renotifySeconds !== null && at.getTime() - last.getTime() >= t.renotifySeconds * 1000);
    return due ? notified("renotified", "alerting", before.stateSince) : { ...before, alert: null };
  }
  if (breached) return notified("fired", "alerting", at);
  const state: MonitorState = hasData ? "ok" : "no_data";
  return state === before.state ? { ...before, alert: null } : { ...before, state, stateSince: at, alert: null };
}
