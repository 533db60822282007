import type { AppContext } from "@/server/core/app-context";
import { EVENTS_CHANNEL } from "@/server/events";
import { startDeliveryPump } from "@/server/webhooks";
import { startWakeLoop, wakeOnNotify, type BackgroundWorker, type RunningWorker } from "@/server/worker";
import {
  A2A_PUSHES_CHANNEL,
  anySettledTaskPushes,
  deliverDuePushes,
  pushDeliveryQueue,
  queueSettledTaskPushes,
} from "./push-queue";

export interface PushWorkerOptions {
  concurrency?: number;
  /** Safety poll when no notification arrives (retries falling due, a missed NOTIFY). */
  idleMs?: number;
}

/**
 * Two loops: queueing (settled tasks' configs to pushes) and the webhook delivery pump over the
 * push queue, woken by the queueing. A run's end wakes the queueing through the outbox's channel
 * only when a webhook also takes its event (an event nothing takes is written without a notify,
 * server/events/emit.ts); otherwise its poll (`idleMs`, a second) finds the settled task. Both
 * poll when idle, which is also how retries fall due.
 */
export function startPushWorker(
  app: AppContext,
  options: PushWorkerOptions = {},
): RunningWorker & { listening: Promise<void> } {
  const idleMs = options.idleMs ?? 1_000;
  const delivery = startDeliveryPump(app, options.concurrency ?? 20, idleMs, pushDeliveryQueue);
  const queueing = startWakeLoop(
    "a2a-push-queueing",
    async (idle) => {
      if (idle && !(await anySettledTaskPushes(app))) return 0;
      const queued = await queueSettledTaskPushes(app);
      if (queued > 0) delivery.wake();
      return queued;
    },
    idleMs,
    // Under a stream of outbox notifies, one pass per 50 ms takes what settled.
    50,
  );
  const wakes = wakeOnNotify(app.db, "A2A push worker", [
    [EVENTS_CHANNEL, queueing],
    [A2A_PUSHES_CHANNEL, delivery],
  ]);
  return {
    listening: wakes.listening,
    async stop() {
      await wakes.stop();
      await Promise.all([queueing.stop(), delivery.stop()]);
    },
  };
}

export const a2aPushWorker: BackgroundWorker = {
  name: "a2a-pushes",
  start: (app) => startPushWorker(app),
  drain: (app, limit) => deliverDuePushes(app, limit),
};
