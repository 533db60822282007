import { z } from "zod";
import { toIso } from "@/server/core/time";
import { METRIC_NAMES, SCOPE_KINDS } from "./monitor-input";
import type { AlertRow, MonitorRow, StoredChannel } from "./monitor-store";
import { NOTIFICATION_STATUSES, type NotificationRow } from "./notification-store";

const iso = z.string();
const STATES = ["ok", "alerting", "no_data"] as const;

export const channelWire = z.object({
  kind: z.enum(["slack", "teams", "github"]),
  host: z.string().describe("Where messages go; the URL or token itself is never returned"),
  repository: z.string().optional(),
  event_type: z.string().optional(),
  api_url: z.string().optional(),
});

export const monitorWire = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  metric: z.object({
    name: z.enum(METRIC_NAMES),
    focus: z.enum(["run", "span"]),
    usage_kind: z.string().optional(),
    budget_id: z.string().optional(),
    evaluator: z.string().optional(),
  }),
  scope: z.object({
    kind: z.enum(SCOPE_KINDS),
    value: z.string().optional().describe("The value runs carry: an agent's id, an environment's slug, ..."),
    label: z.string().optional().describe("What a person calls it: the agent's or environment's name, the key's name"),
  }),
  window_seconds: z.number().int(),
  operator: z.enum(["above", "below"]),
  threshold: z.number(),
  recovery_threshold: z.number(),
  min_samples: z.number().int(),
  renotify_seconds: z.number().int().optional(),
  channels: z.array(channelWire),
  muted_until: iso.optional().describe("Silent until then: evaluated and recorded, nothing notified"),
  muted: z.boolean().describe("muted_until is still ahead"),
  state: z.enum(STATES),
  state_since: iso,
  last_value: z.number().optional(),
  last_samples: z.number().int().optional(),
  last_evaluated_at: iso.optional(),
  last_notified_at: iso.optional(),
  next_evaluation_at: iso,
  created_by_id: z.string(),
  created_at: iso,
  updated_at: iso,
});
export type MonitorWire = z.infer<typeof monitorWire>;

export function monitorToWire(row: MonitorRow, now: Date): MonitorWire {
  return {
    id: row.id,
    name: row.name,
    ...(row.description ? { description: row.description } : {}),
    metric: row.metric as MonitorWire["metric"],
    scope: row.scope as MonitorWire["scope"],
    window_seconds: row.windowSeconds,
    operator: row.operator,
    threshold: row.threshold,
    recovery_threshold: row.recoveryThreshold,
    min_samples: row.minSamples,
    ...(row.renotifySeconds !== null ? { renotify_seconds: row.renotifySeconds } : {}),
    channels: (row.channels as unknown as StoredChannel[]).map(({ kind, host, repository, event_type, api_url }) => ({
      kind,
      host,
      ...(repository ? { repository } : {}),
      ...(event_type ? { event_type } : {}),
      ...(api_url ? { api_url } : {}),
    })),
    ...(row.mutedUntil ? { muted_until: toIso(row.mutedUntil) } : {}),
    muted: row.mutedUntil !== null && row.mutedUntil > now,
    state: row.state,
    state_since: toIso(row.stateSince),
    ...(row.lastValue !== null ? { last_value: row.lastValue } : {}),
    ...(row.lastSamples !== null ? { last_samples: row.lastSamples } : {}),
    ...(row.lastEvaluatedAt ? { last_evaluated_at: toIso(row.lastEvaluatedAt) } : {}),
    ...(row.lastNotifiedAt ? { last_notified_at: toIso(row.lastNotifiedAt) } : {}),
    next_evaluation_at: toIso(row.nextEvaluationAt),
    created_by_id: row.createdBy,
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
  };
}

export const notificationWire = z.object({
  id: z.string(),
  alert_id: z.string(),
  channel: z.number().int().describe("The channel's index in the monitor's channels when the alert was recorded"),
  kind: z.enum(["slack", "teams", "github"]),
  host: z.string().optional().describe("Where the message went; the URL or token itself is never returned"),
  status: z
    .enum(NOTIFICATION_STATUSES)
    .describe("pending: not sent yet or waiting for a retry; sent: the channel answered 2xx; failed: given up"),
  attempts: z.number().int().describe("Requests made so far"),
  response_status: z.number().int().optional().describe("The HTTP status of the last answer"),
  last_error: z.string().optional().describe("Why the last attempt failed (secrets redacted)"),
  last_attempt_at: iso.optional(),
  next_attempt_at: iso.optional().describe("When a pending message is tried (again)"),
  sent_at: iso.optional(),
  created_at: iso,
});
export type NotificationWire = z.infer<typeof notificationWire>;

export function notificationToWire(row: NotificationRow): NotificationWire {
  return {
    id: row.id,
    alert_id: row.alertId,
    channel: row.channel,
    kind: row.kind,
    ...(row.host ? { host: row.host } : {}),
    status: row.status,
    attempts: row.attempts,
    ...(row.responseStatus !== null ? { response_status: row.responseStatus } : {}),
    ...(row.lastError ? { last_error: row.lastError } : {}),
    ...(row.lastAttemptAt ? { last_attempt_at: toIso(row.lastAttemptAt) } : {}),
    ...(row.status === "pending" ? { next_attempt_at: toIso(row.nextAttemptAt) } : {}),
    ...(row.sentAt ? { sent_at: toIso(row.sentAt) } : {}),
    created_at: toIso(row.createdAt),
  };
}

export const alertWire = z.object({
  id: z.string(),
  monitor_id: z.string(),
  kind: z.enum(["fired", "renotified", "resolved"]),
  state: z.enum(STATES),
  previous_state: z.enum(STATES),
  value: z.number().optional().describe("Omitted when there was no data"),
  threshold: z.number(),
  samples: z.number().int(),
  window_start: iso,
  window_end: iso,
  evaluated_at: iso,
  muted: z.boolean().describe("Recorded while muted: nothing was notified"),
  notifications: z
    .array(notificationWire)
    .describe("One message per channel and its delivery: whether it was sent, is retrying or failed"),
  created_at: iso,
});
export type AlertWire = z.infer<typeof alertWire>;

/** An alert and its channel messages. */
export type AlertWithNotifications = AlertRow & { notifications: NotificationRow[] };

export function alertToWire(row: AlertWithNotifications): AlertWire {
  return {
    id: row.id,
    monitor_id: row.monitorId,
    kind: row.kind,
    state: row.state,
    previous_state: row.previousState,
    ...(row.value !== null ? { value: row.value } : {}),
    threshold: row.threshold,
    samples: row.samples,
    window_start: toIso(row.windowStart),
    window_end: toIso(row.windowEnd),
    evaluated_at: toIso(row.evaluatedAt),
    muted: row.muted,
    notifications: row.notifications.map(notificationToWire),
    created_at: toIso(row.createdAt),
  };
}
