import type { AppContext } from "@/server/core/app-context";
import { logger } from "@/server/core/logger";
import { startWakeLoop, type WakeLoop } from "@/server/worker";
import { claimAndSend } from "./deliver";
import { recordAttempts, type FinishedAttempt } from "./record-attempts";

/**
 * What the pump sends: a table of leased deliveries. `claimAndSend` claims up to `limit` due
 * ones and starts each attempt (the promises never reject); `record` writes a batch of outcomes.
 * Webhook deliveries are the default; A2A pushes (server/a2a) are another queue on the same pump.
 */
export interface DeliveryQueue<A> {
  name: string;
  claimAndSend(app: AppContext, limit: number): Promise<{ claimed: number; sends: Promise<A>[] }>;
  record(app: AppContext, finished: A[]): Promise<void>;
}

const webhookDeliveryQueue: DeliveryQueue<FinishedAttempt> = {
  name: "webhook-delivery",
  claimAndSend,
  record: recordAttempts,
};

/**
 * The long-running delivery loop: keeps up to `concurrency` requests in flight, claiming more as
 * slots free up, so one slow endpoint holds one slot rather than a whole batch. Outcomes are
 * written by one writer that takes everything finished since its last write, so a busy pump
 * records in batches and an idle one records at once.
 */
export function startDeliveryPump<A = FinishedAttempt>(
  app: AppContext,
  concurrency: number,
  idleMs: number,
  queue: DeliveryQueue<A> = webhookDeliveryQueue as unknown as DeliveryQueue<A>,
): WakeLoop {
  const inFlight = new Set<Promise<void>>();
  let finished: A[] = [];
  let writing: Promise<void> | undefined;
  let slotFreed: (() => void) | undefined;
  let stopped = false;

  const write = () => {
    writing ??= (async () => {
      while (finished.length > 0) {
        const batch = finished;
        finished = [];
        try {
          await queue.record(app, batch);
        } catch (error) {
          // The leases run out and the deliveries are sent again: at least once, never lost.
          logger.error({ err: error, deliveries: batch.length, queue: queue.name }, "delivery outcomes not recorded");
        }
      }
    })().finally(() => {
      writing = undefined;
    });
  };

  const pass = async (): Promise<number> => {
    while (inFlight.size >= concurrency && !stopped) await new Promise<void>((resolve) => (slotFreed = resolve));
    if (stopped) return 0;
    const { claimed, sends } = await queue.claimAndSend(app, concurrency - inFlight.size);
    for (const sent of sends) {
      const task = sent
        .then((attempt) => {
          finished.push(attempt);
          write();
        })
        .finally(() => {
          inFlight.delete(task);
          slotFreed?.();
          slotFreed = undefined;
        });
      inFlight.add(task);
    }
    return claimed;
  };

  const loop = startWakeLoop(queue.name, pass, idleMs);
  return {
    wake: () => loop.wake(),
    async stop() {
      stopped = true;
      // Free a pass waiting for a slot, so the loop can see it was stopped.
      slotFreed?.();
      await loop.stop();
      await Promise.all(inFlight);
      while (writing) await writing;
    },
  };
}
