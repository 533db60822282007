import { logger } from "@/server/core/logger";
import type { Database } from "@/server/db";
import { agentRunEvents } from "@/server/db/schema";
import type { NativeEvent } from "@/server/streams";
import { noticeRun, RUN_EVENTS_CHANNEL } from "./run-wakeups";

/** How long an appended event may wait for companions before its batch is written. */
const FLUSH_MS = 50;
const MAX_BATCH = 500;

/**
 * Appends a run's events to `agent_run_events`, one row per batch, off the stream's path:
 * `append` only queues; a timer (or a full batch) writes the queue in one insert and notifies
 * the followers. The run's own row (`writeRow`) is written by the first flush, due FLUSH_MS after
 * the start whether or not an event came: not before the first byte. Batches are written one after another, so `seq` order holds in the table. A failed
 * write is logged and the run goes on: the live stream never waits on the log.
 */
export class EventLogWriter {
  private queue: NativeEvent[] = [];
  private nextSeq: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> | undefined;
  private failed = false;

  constructor(
    private readonly db: Database,
    private readonly runId: string,
    private readonly writeRow: () => Promise<void>,
    /** The position after which this writer appends: 0 for a new run, the log's end for a run taken over. */
    lastSeq = 0,
  ) {
    this.nextSeq = lastSeq + 1;
    // A turn that is silent for a while (a slow model) is still listed and cancellable.
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** The run's row, written now if no flush has written it yet. */
  rowWritten(): Promise<void> {
    this.chain ??= this.writeRow().catch((error: unknown) => {
      this.failed = true;
      logger.error({ err: error, runId: this.runId }, "recording the run failed; its events are not kept");
      throw error;
    });
    return this.chain;
  }

  append(event: NativeEvent): void {
    this.queue.push(event);
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is queued; resolves when every batch so far is in the table (or was given up). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    const seq = this.nextSeq;
    this.nextSeq += batch.length;
    const previous = this.rowWritten();
    this.chain = previous
      .then(async () => {
        if (!batch.length || this.failed) return;
        await this.db
          .insert(agentRunEvents)
          .values({ runId: this.runId, seq, lastSeq: seq + batch.length - 1, events: batch });
        await noticeRun(this.db, RUN_EVENTS_CHANNEL, this.runId);
      })
      .catch((error: unknown) => {
        if (!this.failed) logger.error({ err: error, runId: this.runId }, "appending the run's events failed");
      });
    return this.chain;
  }
}
