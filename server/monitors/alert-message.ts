import { formatValue, isScoreMetric, METRIC_LABELS } from "@/shared/monitor-metrics";
import type { MetricName, ScopeKind } from "./monitor-input";
import type { AlertKind } from "./next-state";

/** What an alert says, for every channel: built from the recorded alert, pure. */
export interface AlertFacts {
  alertId: string;
  kind: AlertKind;
  monitor: { id: string; name: string };
  metric: MetricName;
  focus: "run" | "span";
  scope: { kind: ScopeKind; value?: string; label?: string };
  operator: "above" | "below";
  threshold: number;
  recoveryThreshold: number;
  value: number | null;
  samples: number;
  windowSeconds: number;
  windowStart: Date;
  windowEnd: Date;
  evaluatedAt: Date;
  state: string;
  /** The app's public URL (PUBLIC_URL), when set: links are absolute only then. */
  baseUrl?: string;
}

export function scopeText(scope: AlertFacts["scope"]): string {
  return scope.kind === "project" ? "the project" : `${scope.kind.replace("_", " ")} ${scope.label ?? scope.value}`;
}

function windowText(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  return `${Math.round(seconds / 60)} min`;
}

/** The analytics view over the alert's window, and the monitor on the Monitors page. */
export function alertLinks(f: AlertFacts): { analytics: string; monitor: string } {
  const base = f.baseUrl?.replace(/\/$/, "") ?? "";
  const range = `oldest=${encodeURIComponent(f.windowStart.toISOString())}&newest=${encodeURIComponent(f.windowEnd.toISOString())}`;
  return { analytics: `${base}/analytics?${range}`, monitor: `${base}/monitors?monitor=${f.monitor.id}` };
}

/** "Monitor "Errors": error rate 42% is above 20% for agent support (30 min window, 12 runs)". */
export function alertTitle(f: AlertFacts): string {
  const label = METRIC_LABELS[f.metric];
  const value = formatValue(f.metric, f.value);
  const unit = isScoreMetric(f.metric) ? "scored results" : f.focus === "run" ? "runs" : "spans";
  const samples = f.metric === "budget_use" ? "" : `, ${f.samples} ${unit}`;
  const context = `(${windowText(f.windowSeconds)} window${samples})`;
  if (f.kind === "resolved") {
    const why =
      f.value === null
        ? `has no data now`
        : `is back at ${value} (resolves past ${formatValue(f.metric, f.recoveryThreshold)})`;
    return `Resolved: ${f.monitor.name}: ${label} for ${scopeText(f.scope)} ${why} ${context}`;
  }
  const lead = f.kind === "renotified" ? "Still alerting" : "Alert";
  return `${lead}: ${f.monitor.name}: ${label} ${value} is ${f.operator} ${formatValue(f.metric, f.threshold)} for ${scopeText(f.scope)} ${context}`;
}

/** The event's attributes (`monitors.alert.fired` / `.resolved`): the same facts as the messages. */
export function alertAttributes(f: AlertFacts): Record<string, unknown> {
  const links = alertLinks(f);
  return {
    alert_id: f.alertId,
    kind: f.kind,
    monitor_id: f.monitor.id,
    monitor_name: f.monitor.name,
    metric: f.metric,
    focus: f.focus,
    scope: f.scope,
    operator: f.operator,
    threshold: f.threshold,
    recovery_threshold: f.recoveryThreshold,
    value: f.value,
    samples: f.samples,
    state: f.state,
    window_seconds: f.windowSeconds,
    window_start: f.windowStart.toISOString(),
    window_end: f.windowEnd.toISOString(),
    evaluated_at: f.evaluatedAt.toISOString(),
    message: alertTitle(f),
    analytics_url: links.analytics,
    monitor_url: links.monitor,
  };
}
