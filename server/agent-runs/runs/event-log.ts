import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { agentRunEvents } from "@/server/db/schema";
import type { NativeEvent } from "@/server/streams";
import { noticeRun, RUN_EVENTS_CHANNEL } from "./run-wakeups";

/** How long an appended event may wait for companions before its batch is written. */
const FLUSH_MS = 20;
const MAX_BATCH = 256;

/**
 * Appends a run's events to `agent_run_events` in batches, off the stream's path: `append` only
 * queues; a timer (or a full batch) writes the queue in one insert and notifies the followers.
 * Batches are written one after another, after the run's row (`rowWritten`), so `seq` order holds
 * in the table. A failed write is logged and the run goes on: the live stream never waits on it.
 */
export class EventLogWriter {
  private queue: Array<{ runId: string; seq: number; event: NativeEvent }> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void>;
  private failed = false;

  constructor(
    private readonly db: Database,
    private readonly runId: string,
    rowWritten: Promise<void>,
  ) {
    this.chain = rowWritten.catch((error: unknown) => {
      this.failed = true;
      logger.error({ err: error, runId }, "recording the run failed; its events are not kept");
    });
  }

  append(seq: number, event: NativeEvent): void {
    this.queue.push({ runId: this.runId, seq, event });
    if (this.queue.length >= MAX_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Writes what is queued; resolves when every batch so far is in the table. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length) {
      this.chain = this.chain.then(async () => {
        if (this.failed) return;
        try {
          await this.db.insert(agentRunEvents).values(batch);
          await noticeRun(this.db, RUN_EVENTS_CHANNEL, this.runId);
        } catch (error) {
          logger.error({ err: error, runId: this.runId }, "appending the run's events failed");
        }
      });
    }
    return this.chain;
  }
}
