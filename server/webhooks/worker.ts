import { anyEventToFanOut, EVENTS_CHANNEL } from "@/server/events";
import type { AppContext } from "@/server/core/app-context";
import { startWakeLoop, wakeOnNotify, type BackgroundWorker, type RunningWorker } from "@/server/worker";
import { DELIVERIES_CHANNEL } from "./channels";
import { deliverDue } from "./deliver";
import { startDeliveryPump } from "./delivery-pump";
import { fanOutEvents } from "./fan-out";

export interface WebhookWorkerOptions {
  /** Events claimed per fan-out transaction. */
  fanOutBatch?: number;
  /** Deliveries sent at once. */
  concurrency?: number;
  /** Safety poll when no notification arrives (retries falling due, a missed NOTIFY). */
  idleMs?: number;
  /**
   * Least time between fan-out passes under a stream of events: every commit and every batch of
   * read events notifies, and a pass per notification was a write transaction per request.
   */
  fanOutIntervalMs?: number;
}

/**
 * Two loops: fan-out (outbox events to deliveries) wakes on the events channel, delivery wakes
 * on the deliveries channel and whenever its own fan-out made deliveries. Both poll when idle,
 * which is also how scheduled retries are found when they fall due.
 */
export function startWebhookWorker(
  app: AppContext,
  options: WebhookWorkerOptions = {},
): RunningWorker & { listening: Promise<void> } {
  const idleMs = options.idleMs ?? 1_000;
  const delivery = startDeliveryPump(app, options.concurrency ?? 50, idleMs);
  const fanOut = startWakeLoop(
    "webhook-fan-out",
    async (idle) => {
      // An idle poll looks with one statement before the pass's transaction.
      if (idle && !(await anyEventToFanOut(app.db))) return 0;
      const batch = options.fanOutBatch ?? 500;
      const result = await fanOutEvents(app.db, batch);
      if (result.deliveries > 0) delivery.wake();
      // A short batch emptied the outbox: events written since then notify and wake the loop, so
      // an immediate second pass would only find nothing (one wasted transaction per wake-up).
      return result.events < batch ? 0 : result.events;
    },
    idleMs,
    options.fanOutIntervalMs ?? 10,
  );
  const wakes = wakeOnNotify(app.db, "webhook worker", [
    [EVENTS_CHANNEL, fanOut],
    [DELIVERIES_CHANNEL, delivery],
  ]);
  return {
    listening: wakes.listening,
    async stop() {
      await wakes.stop();
      await Promise.all([fanOut.stop(), delivery.stop()]);
    },
  };
}

export const webhookWorker: BackgroundWorker = {
  name: "webhooks",
  start: (app) => startWebhookWorker(app),
  async drain(app, limit) {
    let handled = 0;
    while (handled < limit) {
      const result = await fanOutEvents(app.db, Math.min(500, limit - handled));
      if (result.events === 0) break;
      handled += result.events;
    }
    return handled + (await deliverDue(app, Math.max(1, limit - handled)));
  },
};
