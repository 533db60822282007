import { logger } from "@/server/core/logger";
import { storableJson } from "@/server/core/storable-text";
import type { Database } from "@/server/db";
import { redactorFor, type Redactor } from "@/server/redaction";
import type { NativeEvent } from "@/server/streams";
import { toLogEntries } from "./log-entries";
import { OpenBlocks, redactEvents, redactNewRun } from "./redact-log";
import {
  appendEvents,
  endRun,
  insertAgentRun,
  insertAgentRunOnce,
  type NewRun,
  type RunEnd,
  type StoredBatch,
} from "./run-store";

interface QueuedBatch {
  seq: number;
  lastSeq: number;
  events: NativeEvent[];
}

/** A batch as the log stores it: redacted, deltas joined into runs, as JSON the database accepts. */
const stored = (batch: QueuedBatch, redactor: Redactor): StoredBatch => ({
  seq: batch.seq,
  lastSeq: batch.lastSeq,
  json: storableJson(toLogEntries(redactEvents(batch.events, redactor))),
});

const redactEnd = (end: RunEnd, redactor: Redactor): RunEnd =>
  end.error === undefined ? end : { ...end, error: redactor.text(end.error) };

/**
 * Writes a new run's row before its turn begins, redacted as the writer would write it, unless a
 * row with its id exists (another start of the same run id: false, and nothing may start).
 */
export async function recordRunOnce(db: Database, run: NewRun): Promise<boolean> {
  const { redactor } = await redactorFor(db, run.projectId);
  return insertAgentRunOnce(db, redactNewRun(run, redactor));
}

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
 * waits on the log. Everything is stored as the project's redaction rules leave it (the events,
 * the recorded request, the error); while those rules are active (or not yet read), a text or
 * reasoning block is written once it ends, so it is redacted whole.
 */
export class EventLogWriter {
  private queue: NativeEvent[] = [];
  /** How many queued events may be written now: none of them inside an open block. */
  private closedUpTo = 0;
  private readonly blocks = new OpenBlocks();
  /** The project's redactor once read (`rules` settles); until then blocks are held as if active. */
  private redactor: Redactor | undefined;
  private readonly rules: Promise<{ redactor: Redactor; newRun: NewRun | undefined }>;
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
    projectId: string,
    /** The run's row to write; undefined when it exists (a run taken over). */
    newRun: NewRun | undefined,
    /** The position after which this writer appends: 0 for a new run, the log's end for a run taken over. */
    lastSeq = 0,
  ) {
    this.nextSeq = lastSeq + 1;
    this.rules = redactorFor(db, projectId).then(({ redactor }) => {
      this.redactor = redactor;
      return { redactor, newRun: newRun && redactNewRun(newRun, redactor) };
    });
    // A failed read fails the writes that wait on it (logged there), not the run.
    this.rules.catch(() => undefined);
    if (!newRun) this.row = Promise.resolve();
    // A turn that is silent for a while (a slow model) is still listed and cancellable.
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** The run's row, written now if no flush has written it yet. */
  rowWritten(): Promise<void> {
    this.row ??= this.firstWrite(this.rules.then(({ newRun }) => insertAgentRun(this.db, newRun!)));
    return this.row;
  }

  append(event: NativeEvent): void {
    this.queue.push(event);
    if (this.blocks.see(event)) this.closedUpTo = this.queue.length;
    if (this.closedUpTo >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is queued; resolves when every batch so far is in the table (or was given up). */
  flush(): Promise<void> {
    const batch = this.take();
    if (!this.row) {
      if (!batch) return this.rowWritten().catch(() => undefined);
      this.row = this.firstWrite(
        this.rules.then(({ redactor, newRun }) => appendEvents(this.db, this.runId, stored(batch, redactor), newRun)),
      );
      return this.chain;
    }
    if (!batch) return this.chain;
    this.chain = this.chain
      .then(() => (this.failed ? undefined : this.rules))
      .then((rules) => rules && appendEvents(this.db, this.runId, stored(batch, rules.redactor)))
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
    const tail = this.take(true);
    if (!this.row) {
      const ended = this.rules.then(({ redactor, newRun }) =>
        endRun(this.db, this.runId, redactEnd(end, redactor), tail && stored(tail, redactor), newRun),
      );
      this.row = this.firstWrite(ended.then(() => undefined));
      return ended.catch(() => false);
    }
    await this.chain;
    if (this.failed) return false;
    const { redactor } = await this.rules;
    return endRun(this.db, this.runId, redactEnd(end, redactor), tail && stored(tail, redactor));
  }

  /**
   * The queued events that may be written now as the next batch, positions assigned: all of them
   * when redaction is off or at the run's end (`all`), else those before any block still open.
   */
  private take(all = false): QueuedBatch | undefined {
    clearTimeout(this.timer);
    this.timer = undefined;
    const holding = !all && (this.redactor === undefined || this.redactor.active);
    const count = holding ? this.closedUpTo : this.queue.length;
    if (count === 0) return undefined;
    const seq = this.nextSeq;
    this.nextSeq += count;
    const events = this.queue.splice(0, count);
    this.closedUpTo = Math.max(0, this.closedUpTo - count);
    return { seq, lastSeq: this.nextSeq - 1, events };
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
