import type { AnalyticsQuery } from "@/server/analytics";
import type { MonitorWire, NotificationWire } from "@/server/monitors";
import { isScoreMetric } from "@/shared/monitor-metrics";

/** "project", or the scope's kind in words and its value: "api key key_1". */
export function scopeText(m: Pick<MonitorWire, "scope">): string {
  return m.scope.kind === "project" ? "project" : `${m.scope.kind.replace("_", " ")} ${m.scope.label ?? m.scope.value}`;
}

/** A window in its largest whole unit: "1 d", "6 h", "90 min". */
export function windowText(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  return `${seconds / 60} min`;
}

/**
 * The chart's range: a day of hours for windows up to a day, else a fortnight of days, up to the
 * end of the hour (or UTC day) `now` is in; by evaluator for a score metric, narrowed to the scope.
 */
export function chartQuery(m: Pick<MonitorWire, "metric" | "scope" | "window_seconds">, now: Date): AnalyticsQuery {
  const daily = m.window_seconds > 86_400;
  const end = new Date(now);
  if (daily) end.setUTCHours(24, 0, 0, 0);
  else end.setUTCMinutes(60, 0, 0);
  const oldest = new Date(end.getTime() - (daily ? 14 * 86_400_000 : 86_400_000));
  return {
    focus: m.metric.focus,
    windowing: { oldest: oldest.toISOString(), newest: end.toISOString(), bucket: daily ? "day" : "hour" },
    ...(isScoreMetric(m.metric.name) ? { group_by: "evaluator" as const } : {}),
    ...(m.scope.kind !== "project"
      ? { filtering: { conditions: [{ field: m.scope.kind, value: m.scope.value }] } }
      : {}),
  };
}

const CHANNEL_LABELS: Record<NotificationWire["kind"], string> = { slack: "Slack", teams: "Teams", github: "GitHub" };

/**
 * A channel message's delivery in words: sent, sending, retrying or failed, and for a failure
 * how many attempts and the last error, so an alert whose Slack post failed says so.
 */
export function notificationText(n: NotificationWire): {
  tone: "success" | "neutral" | "warning" | "danger";
  label: string;
  detail?: string;
} {
  const channel = CHANNEL_LABELS[n.kind];
  const tries = `${n.attempts} attempt${n.attempts === 1 ? "" : "s"}`;
  const why = n.last_error ?? (n.response_status ? `HTTP ${n.response_status}` : "no answer");
  if (n.status === "sent") return { tone: "success", label: `${channel} sent` };
  if (n.status === "failed") return { tone: "danger", label: `${channel} failed`, detail: `after ${tries}: ${why}` };
  if (n.attempts === 0) return { tone: "neutral", label: `${channel} sending` };
  return { tone: "warning", label: `${channel} retrying`, detail: `${tries} failed: ${why}` };
}
