import { logger } from "@/server/core/logger";
import { storableJson } from "@/server/core/storable-text";
import type { Database } from "@/server/db";
import type { NativeEvent } from "@/server/streams";
import { toLogEntries } from "./log-entries";
import { appendEvents, endRun, insertAgentRun, type NewRun, type RunEnd, type StoredBatch } from "./run-store";

/** How long an appended event may wait for companions before its batch is written. */
const FLUSH_MS = 50;
const MAX_BATCH = 500;

/**
 * Appends a run's events to `agent_run_events`, one row per batch, off the stream's path:
 * `append` only queues; a timer (or a full batch) writes the queue, with the followers'
 * notification, in one statement. The run's own row goes in with the first batch, due FLUSH_MS
 * after the start whether or not an event came: not before the first byte. `end` writes the last
 * batch and the run's end in one transaction. Batches are written one after another, so `seq`
 * order holds in the table. A failed write is logged and the run goes on: the live stream never
 * waits on the log.
 */
export class EventLogWriter {
  private queue: NativeEvent[] = [];
  private nextSeq: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Settles when the run's row is written; rejects when that failed. */
  private row: Promise<void> | undefined;
  /** The last write, never rejecting: each write starts after it. */
  private chain: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly db: Database,
    private readonly runId: string,
    /** The run's row to write; undefined when it exists (a run taken over). */
    private readonly newRun: NewRun | undefined,
    /** The position after which this writer appends: 0 for a new run, the log's end for a run taken over. */
    lastSeq = 0,
  ) {
    this.nextSeq = lastSeq + 1;
    if (!newRun) this.row = Promise.resolve();
    // A turn that is silent for a while (a slow model) is still listed and cancellable.
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** The run's row, written now if no flush has written it yet. */
  rowWritten(): Promise<void> {
    this.row ??= this.firstWrite(insertAgentRun(this.db, this.newRun!));
    return this.row;
  }

  append(event: NativeEvent): void {
    this.queue.push(event);
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is queued; resolves when every batch so far is in the table (or was given up). */
  flush(): Promise<void> {
    const batch = this.take();
    if (!this.row) {
      if (!batch) return this.rowWritten().catch(() => undefined);
      this.row = this.firstWrite(appendEvents(this.db, this.runId, batch, this.newRun));
      return this.chain;
    }
    if (!batch) return this.chain;
    this.chain = this.chain
      .then(() => (this.failed ? undefined : appendEvents(this.db, this.runId, batch)))
      .catch((error: unknown) => logger.error({ err: error, runId: this.runId }, "appending the run's events failed"));
    return this.chain;
  }

  /**
   * After the last event: the remaining events, the run's end and its outbox event in one
   * transaction (`endRun`), once every earlier batch is in; a run nothing was written for yet (a
   * turn shorter than FLUSH_MS) has its row inserted already ended in it. Returns whether this
   * ended the run.
   */
  async end(end: RunEnd): Promise<boolean> {
    const tail = this.take();
    if (!this.row) {
      const ended = endRun(this.db, this.runId, end, tail, this.newRun);
      this.row = this.firstWrite(ended.then(() => undefined));
      return ended.catch(() => false);
    }
    await this.chain;
    if (this.failed) return false;
    return endRun(this.db, this.runId, end, tail);
  }

  /** The queued events as the next batch, positions assigned; undefined when none are queued. */
  private take(): StoredBatch | undefined {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.queue.length) return undefined;
    const seq = this.nextSeq;
    this.nextSeq += this.queue.length;
    const batch = { seq, lastSeq: this.nextSeq - 1, json: storableJson(toLogEntries(this.queue)) };
    this.queue = [];
    return batch;
  }

  /** The write that creates the run's row: when it fails, the run is not recorded and nothing more is written. */
  private firstWrite(write: Promise<void>): Promise<void> {
    const row = write.catch((error: unknown) => {
      this.failed = true;
      logger.error({ err: error, runId: this.runId }, "recording the run failed; its events are not kept");
      throw error;
    });
    this.chain = row.catch(() => undefined);
    return row;
  }
}
