import { A2A_CONTENT_TYPE, TaskState, type Task } from "@a2a-js/sdk";
import { A2A_LEGACY_PROTOCOL_VERSION } from "@a2a-js/sdk/compat/v0_3";
import { V03PushNotificationSerializer } from "@a2a-js/sdk/compat/v0_3/server";
import { V1PushNotificationSerializer } from "@a2a-js/sdk/server";
import { and, asc, eq, inArray, isNull, not, sql } from "drizzle-orm";
import { findAgentRunSoon, readRunEvents, runIsRunning } from "@/server/agent-runs";
import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { rememberSecret } from "@/server/core/secret-masking";
import { preparedQuery, type Executor } from "@/server/db";
import { a2aPushConfigs, a2aPushDeliveries } from "@/server/db/schema";
import {
  claimDue,
  isSuccess,
  nextAttemptAt,
  sendAttempt,
  webhookFetch,
  type AttemptResult,
  type DeliveryQueue,
} from "@/server/webhooks";
import { runToTask, taskState } from "./run-to-task";
import { taskUpdate } from "./task-events";

/** Wakes the push pump when pushes were queued (at the queueing transaction's commit). */
export const A2A_PUSHES_CHANNEL = "a2a_pushes_queued";

/** The header A2A clients read a config's token from (the SDK's sender's default). */
export const NOTIFICATION_TOKEN_HEADER = "X-A2A-Notification-Token";

type DeliveryRow = typeof a2aPushDeliveries.$inferSelect;
type ConfigRow = typeof a2aPushConfigs.$inferSelect;

const STATE_NAMES: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
};

/** The push body of a task, as the SDK's sender serializes it for the version the config was set over. */
function serializedTask(task: Task, wireVersion: string): { body: string; contentType: string } {
  const serializer =
    wireVersion === A2A_LEGACY_PROTOCOL_VERSION
      ? new V03PushNotificationSerializer()
      : new V1PushNotificationSerializer();
  return serializer.serialize(taskUpdate(task), task);
}

/** Whether a queueing pass would find a config: an idle poll's one statement, no transaction. */
export async function anySettledTaskPushes(app: AppContext): Promise<boolean> {
  return (await preparedQuery(app.db, "a2a.anySettledConfig", anySettledConfig).execute()).length > 0;
}

const anySettledConfig = (db: Executor) =>
  db
    .select({ id: a2aPushConfigs.id })
    .from(a2aPushConfigs)
    .where(and(isNull(a2aPushConfigs.queuedAt), not(runIsRunning(a2aPushConfigs.taskId))))
    .limit(1);

/**
 * One queueing pass: the configs whose task has left `working` (its run ended or paused) get one
 * push of the task as it settled, in the transaction that marks them queued (`FOR UPDATE SKIP
 * LOCKED`: concurrent workers take disjoint configs; a crash before the commit leaves them for
 * the next pass). It runs on a poll, and on the outbox's notification when a run's end event is
 * taken by a webhook (push-worker.ts).
 */
export async function queueSettledTaskPushes(app: AppContext, limit = 100, now = new Date()): Promise<number> {
  const c = a2aPushConfigs;
  return app.db.transaction(async (tx) => {
    const settled = await tx
      .select()
      .from(c)
      .where(and(isNull(c.queuedAt), not(runIsRunning(c.taskId))))
      .orderBy(asc(c.createdAt))
      .limit(limit)
      .for("update", { of: c, skipLocked: true });
    if (settled.length === 0) return 0;
    const rows: (typeof a2aPushDeliveries.$inferInsert)[] = [];
    for (const config of settled) {
      const run = await findAgentRunSoon(tx, config.projectId, config.taskId);
      if (!run) continue;
      const events = (await readRunEvents(tx, run.id)).map((e) => e.event);
      const task = runToTask(run, events);
      const { body } = serializedTask(task, config.wireVersion);
      rows.push({
        id: newId(),
        projectId: config.projectId,
        pushConfigId: config.id,
        state: STATE_NAMES[taskState(run)] ?? "working",
        url: config.url,
        payload: body,
        status: "pending",
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
    }
    if (rows.length > 0) await tx.insert(a2aPushDeliveries).values(rows).onConflictDoNothing();
    await tx
      .update(c)
      .set({ queuedAt: now })
      .where(
        inArray(
          c.id,
          settled.map((s) => s.id),
        ),
      );
    if (rows.length > 0) await tx.execute(sql`select pg_notify(${A2A_PUSHES_CHANNEL}, '')`);
    return settled.length;
  });
}

/** An attempt of a push, to record. */
export interface FinishedPush {
  delivery: DeliveryRow;
  result: AttemptResult;
}

/** A push as the webhook sender sends it: signed with the config's token, its credentials as `Authorization`. */
function outgoingPush(app: AppContext, delivery: DeliveryRow, config: ConfigRow) {
  const token = app.secrets.open(config.sealedToken);
  const credentials = config.sealedCredentials ? app.secrets.open(config.sealedCredentials) : undefined;
  rememberSecret(token);
  rememberSecret(credentials);
  return {
    deliveryId: delivery.id,
    eventId: config.taskId,
    eventType: `a2a.tasks.${delivery.state}`,
    url: delivery.url,
    payload: delivery.payload,
    authMode: "signature" as const,
    secret: token,
    userHeaders: { [NOTIFICATION_TOKEN_HEADER]: token },
    ...(credentials ? { authorization: `${config.authScheme} ${credentials}` } : {}),
    contentType: serializedContentType(config.wireVersion),
  };
}

/** The media type of a pushed body: the serializers' (0.3's plain JSON, 1.0's A2A type). */
function serializedContentType(wireVersion: string): string {
  return wireVersion === A2A_LEGACY_PROTOCOL_VERSION ? "application/json" : A2A_CONTENT_TYPE;
}

async function recordPushes(app: AppContext, finished: FinishedPush[], now = new Date()): Promise<void> {
  const d = a2aPushDeliveries;
  await app.db.transaction(async (tx) => {
    for (const { delivery, result } of finished) {
      const ok = isSuccess(result);
      // 410: the receiver is gone; an egress refusal cannot change by retrying.
      const final = ok || result.statusCode === 410 || result.refused;
      const next = final ? undefined : nextAttemptAt(app.config.webhookRetryScheduleMs, delivery.attempts, now);
      await tx
        .update(d)
        .set({
          status: ok ? "succeeded" : next ? "pending" : "failed",
          nextAttemptAt: next ?? null,
          leaseUntil: null,
          leaseToken: null,
          lastStatusCode: result.statusCode ?? null,
          lastError: ok ? null : (result.error ?? `endpoint answered ${result.statusCode}`),
          updatedAt: now,
        })
        // A worker that lost its lease to a takeover no longer decides the status.
        .where(and(eq(d.id, delivery.id), eq(d.leaseToken, delivery.leaseToken!)));
    }
  });
}

/** A2A pushes as a queue of the webhook delivery pump: the same sender, signature, lease and retry schedule. */
export const pushDeliveryQueue: DeliveryQueue<FinishedPush> = {
  name: "a2a-push-delivery",
  async claimAndSend(app, limit) {
    const claimed = await claimDue(app, a2aPushDeliveries, limit);
    if (claimed.length === 0) return { claimed: 0, sends: [] };
    const ids = [...new Set(claimed.map((p) => p.pushConfigId))];
    const configs = await app.db.select().from(a2aPushConfigs).where(inArray(a2aPushConfigs.id, ids));
    const byId = new Map(configs.map((c) => [c.id, c]));
    const sends = claimed.flatMap((delivery) => {
      const config = byId.get(delivery.pushConfigId);
      // Deleted meanwhile: its pushes went with it.
      if (!config) return [];
      const sent = sendAttempt(webhookFetch(app), outgoingPush(app, delivery, config), app.config.webhookTimeoutMs);
      return [sent.then((result): FinishedPush => ({ delivery, result }))];
    });
    return { claimed: claimed.length, sends };
  },
  record: (app, finished) => recordPushes(app, finished),
};

/** One bounded pass (the cron drain): queue what settled, then send one batch of due pushes. */
export async function deliverDuePushes(app: AppContext, limit = 50): Promise<number> {
  const queued = await queueSettledTaskPushes(app, limit);
  const { claimed, sends } = await pushDeliveryQueue.claimAndSend(app, limit);
  if (claimed > 0) await recordPushes(app, await Promise.all(sends));
  return queued + claimed;
}
