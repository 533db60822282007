import { and, eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, NotFoundError, type ErrorCodeOf } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Principal } from "@/server/core/principal";
import { recordAudit } from "@/server/audit";
import { budgetUse } from "@/server/controls";
import { urlRefusal } from "@/server/egress";
import type { Executor } from "@/server/db";
import { type monitorAlerts, monitors } from "@/server/db/schema";
import { isScoreMetric } from "@/shared/monitor-metrics";
import { defaultRecovery, type ChannelInput, type MonitorInput } from "./monitor-input";
import { nextMinute } from "./check-times";
import { resolveScopeValue } from "./monitor-scope";

export type MonitorRow = typeof monitors.$inferSelect;
export type AlertRow = typeof monitorAlerts.$inferSelect;

/** A channel as stored: its kind and public fields; the URL or token sealed in `sealed`. */
export interface StoredChannel {
  kind: "slack" | "teams" | "github";
  /** The host the messages go to (shown instead of the secret URL). */
  host: string;
  repository?: string;
  event_type?: string;
  api_url?: string;
  sealed: string;
}

const fail = (path: string, detail: string, code: ErrorCodeOf<400> = "invalid_monitor"): never => {
  throw new BadRequestError(`${path} ${detail}`, code, [{ path, message: detail }]);
};

function checkUrl(app: AppContext, path: string, url: string): URL {
  const refusal = urlRefusal(url, { allowlist: app.config.egressAllowlist, httpsOnly: true });
  if (refusal) fail(path, refusal, "invalid_channel_url");
  return new URL(url);
}

function sealChannel(app: AppContext, channel: ChannelInput, i: number): StoredChannel {
  const path = `monitor.channels[${i}]`;
  if (channel.kind === "github") {
    const api = channel.api_url ?? "https://api.github.com";
    const host = checkUrl(app, `${path}.api_url`, api).host;
    return {
      kind: "github",
      host,
      repository: channel.repository,
      event_type: channel.event_type ?? "monitor-alert",
      api_url: api.replace(/\/$/, ""),
      sealed: app.secrets.seal(channel.token),
    };
  }
  const host = checkUrl(app, `${path}.url`, channel.url).host;
  return { kind: channel.kind, host, sealed: app.secrets.seal(channel.url) };
}

/** The columns an input sets, after the checks that need more than its schema. */
async function columnsOf(app: AppContext, projectId: string, input: MonitorInput) {
  const given = input.scope ?? { kind: "project" as const };
  if (given.kind !== "project" && !given.value) fail("monitor.scope.value", `is required for a ${given.kind} scope`);
  if (given.kind === "project" && given.value) fail("monitor.scope.value", "is only for a scope other than project");
  const scope =
    given.kind === "project"
      ? given
      : { kind: given.kind, ...(await resolveScopeValue(app, projectId, given.kind, given.value!)) };
  const metric = input.metric;
  if (metric.name === "budget_use") {
    if (!metric.budget_id) fail("monitor.metric.budget_id", "is required for budget_use");
    if (scope.kind !== "project")
      fail("monitor.scope", "must be the project for budget_use (the budget has its own scope)");
    if (!(await budgetUse(app.db, projectId, metric.budget_id!, app.now())))
      throw new NotFoundError(`No budget ${metric.budget_id} in this project.`, "budget_not_found");
  } else if (metric.budget_id) fail("monitor.metric.budget_id", "is only for budget_use");
  if (metric.usage_kind && metric.name !== "tokens" && metric.name !== "cost")
    fail("monitor.metric.usage_kind", "is only for tokens and cost");
  if (isScoreMetric(metric.name)) {
    if (!metric.evaluator) fail("monitor.metric.evaluator", `is required for ${metric.name}`);
    if (metric.focus === "span") fail("monitor.metric.focus", "must be run for score metrics (scores belong to runs)");
  } else if (metric.evaluator) fail("monitor.metric.evaluator", "is only for score_mean and score_pass_rate");
  const recovery = input.recovery_threshold ?? defaultRecovery(input.operator, input.threshold);
  if (input.operator === "above" ? recovery > input.threshold : recovery < input.threshold)
    fail(
      "monitor.recovery_threshold",
      `must be ${input.operator === "above" ? "at most" : "at least"} the threshold (${input.threshold}) for a monitor that fires ${input.operator} it`,
    );
  return {
    name: input.name,
    description: input.description ?? null,
    metric: { name: metric.name, focus: metric.focus ?? "run", ...compactMetric(metric) },
    scope,
    windowSeconds: input.window_seconds,
    operator: input.operator,
    threshold: input.threshold,
    recoveryThreshold: recovery,
    minSamples: input.min_samples ?? 1,
    renotifySeconds: input.renotify_seconds ?? null,
    ...(input.muted_until !== undefined ? { mutedUntil: input.muted_until ? new Date(input.muted_until) : null } : {}),
  };
}

const compactMetric = (m: MonitorInput["metric"]) => ({
  ...(m.usage_kind ? { usage_kind: m.usage_kind } : {}),
  ...(m.budget_id ? { budget_id: m.budget_id } : {}),
  ...(m.evaluator ? { evaluator: m.evaluator } : {}),
});

export async function createMonitor(app: AppContext, principal: Principal, input: MonitorInput): Promise<MonitorRow> {
  const now = app.now();
  const columns = await columnsOf(app, principal.projectId, input);
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(monitors)
      .values({
        id: newId(),
        projectId: principal.projectId,
        ...columns,
        channels: (input.channels ?? []).map((c, i) => sealChannel(app, c, i)) as unknown as Record<string, unknown>[],
        state: "no_data",
        stateSince: now,
        nextEvaluationAt: nextMinute(now),
        createdBy: principal.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await audit(tx, "monitor.created", undefined, row, now);
    return row;
  });
}

/** What the audit log keeps of a monitor: what it watches and where it says so, never a channel's secret. */
const auditView = (m: MonitorRow) => ({
  name: m.name,
  metric: m.metric,
  scope: m.scope,
  window_seconds: m.windowSeconds,
  operator: m.operator,
  threshold: m.threshold,
  recovery_threshold: m.recoveryThreshold,
  min_samples: m.minSamples,
  channels: (m.channels as unknown as StoredChannel[]).map((c) => ({ kind: c.kind, host: c.host })),
  muted_until: m.mutedUntil?.toISOString() ?? null,
});

function audit(tx: Executor, action: string, before: MonitorRow | undefined, after: MonitorRow | undefined, at: Date) {
  const row = (after ?? before)!;
  return recordAudit(tx, {
    projectId: row.projectId,
    action,
    targetType: "monitor",
    targetId: row.id,
    before: before && auditView(before),
    after: after && auditView(after),
    at,
  });
}

/**
 * A full replace of what the monitor watches; its state and history stay. Channels given replace
 * the stored ones (their secrets must be sent again); without `channels` the stored ones stay.
 */
export async function replaceMonitor(
  app: AppContext,
  projectId: string,
  id: string,
  input: MonitorInput,
): Promise<MonitorRow> {
  const before = await getMonitor(app, projectId, id);
  const columns = await columnsOf(app, projectId, input);
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(monitors)
      .set({
        ...columns,
        ...(input.channels
          ? { channels: input.channels.map((c, i) => sealChannel(app, c, i)) as unknown as Record<string, unknown>[] }
          : {}),
        updatedAt: app.now(),
      })
      .where(and(eq(monitors.id, id), eq(monitors.projectId, projectId)))
      .returning();
    await audit(tx, "monitor.updated", before, row, app.now());
    return row;
  });
}

/** Silent until `until` (null: unmuted). Evaluations go on and are recorded; nothing is notified. */
export async function muteMonitor(app: AppContext, projectId: string, id: string, until: Date | null) {
  if (until && until <= app.now()) fail("until", "must be in the future (or null to unmute)");
  const before = await getMonitor(app, projectId, id);
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(monitors)
      .set({ mutedUntil: until, updatedAt: app.now() })
      .where(and(eq(monitors.id, id), eq(monitors.projectId, projectId)))
      .returning();
    if (!row) throw notFound(id);
    await audit(tx, until ? "monitor.muted" : "monitor.unmuted", before, row, app.now());
    return row;
  });
}

export async function deleteMonitor(app: AppContext, projectId: string, id: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(monitors)
      .where(and(eq(monitors.id, id), eq(monitors.projectId, projectId)))
      .returning();
    if (!gone) throw notFound(id);
    await audit(tx, "monitor.deleted", gone, undefined, app.now());
  });
}

export async function getMonitor(app: AppContext, projectId: string, id: string): Promise<MonitorRow> {
  const [row] = await app.db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, id), eq(monitors.projectId, projectId)));
  if (!row) throw notFound(id);
  return row;
}

export async function listMonitors(app: AppContext, projectId: string): Promise<MonitorRow[]> {
  return app.db.select().from(monitors).where(eq(monitors.projectId, projectId)).orderBy(monitors.name, monitors.id);
}

const notFound = (id: string) => new NotFoundError(`No monitor ${id} in this project.`, "monitor_not_found");
