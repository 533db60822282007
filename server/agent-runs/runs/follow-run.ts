import type { Database } from "@/server/db";
import type { NativeEvent } from "@/server/streams";
import { readRunEvents, runStatus } from "./run-queries";
import { onRunNotice, RUN_EVENTS_CHANNEL } from "./run-wakeups";

export interface LoggedEvent {
  seq: number;
  event: NativeEvent;
}

/** A follower rereads the log at least this often, in case a notification was missed. */
const POLL_MS = 1_000;

/**
 * The run's events after `afterSeq` from the event log, then live until the run has ended: woken
 * by the run's notifications (any process's appends) or a poll. Reads the status before the
 * events, so once the status says ended the events read after it are the whole log. Cancelling
 * the stream only stops following.
 */
export function followRun(db: Database, runId: string, afterSeq = 0): ReadableStream<LoggedEvent> {
  let stopped = false;
  let wake: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  let last = afterSeq;
  const nap = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  let pending = false;
  return new ReadableStream<LoggedEvent>({
    async start() {
      unsubscribe = await onRunNotice(db, RUN_EVENTS_CHANNEL, runId, () => {
        pending = true;
        wake?.();
      });
    },
    async pull(controller) {
      while (!stopped) {
        pending = false;
        const ended = (await runStatus(db, runId)) !== "running";
        let sent = 0;
        for (const row of await readRunEvents(db, runId, last)) {
          // One writer appends batches in order; a hole while running is a batch still landing.
          if (!ended && row.seq !== last + 1) break;
          controller.enqueue(row);
          last = row.seq;
          sent++;
        }
        if (ended) {
          unsubscribe?.();
          controller.close();
          return;
        }
        if (sent) return;
        if (!pending) await nap();
      }
    },
    cancel() {
      stopped = true;
      wake?.();
      unsubscribe?.();
    },
  });
}
