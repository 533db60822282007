import type { AppContext } from "@/server/core/app-context";
import { logger } from "@/server/core/logger";
import type { NativeEvent } from "@/server/streams";
import type { TurnHandle } from "../start-turn";
import { EventLogWriter } from "./event-log";
import { liveRunsOf, liveSessionKey, liveSessionsOf, PROCESS_LEASE_OWNER, trackDrivenRun } from "./live-runs";
import { renewLease } from "./run-lease";
import type { NewRun } from "./run-store";
import { onRunNotice, RUN_CANCEL_CHANNEL } from "./run-wakeups";

export interface DriveOptions {
  /** The old behaviour (`flags.cancel_on_disconnect`): the client going away cancels the turn. */
  cancelOnDisconnect: boolean;
  /**
   * The run's row exists and this process already holds its lease: a run taken over from a
   * process that died (`take-over-run.ts`), its events continuing the log after `lastSeq`, or a
   * background run recorded before its turn began (`lastSeq` 0).
   */
  continuing?: { lastSeq: number };
  /**
   * Close the client's stream only once the run's end is recorded: a batch answer, so a caller
   * that reads its runs right after the answer finds this one ended (read your writes). Streams
   * end at once, but for a paused turn (see below); their followers read the log.
   */
  answerAfterEnd?: boolean;
}

/**
 * Owns a turn for its whole life, apart from any client: reads every event, numbers it (`seq`
 * from 1), queues it for the event log and hands it to the attached client, if one is still
 * there. A client that goes away only detaches (unless it asked to cancel on disconnect); the
 * run keeps its lease by heartbeat, stops when a cancel reaches it (here or through a
 * notification from another process), and is ended in the table with its outbox event once its
 * last event is written. The run's row is written with the first batch of events, so the first
 * byte does not wait on the database; `recorded()` writes it now (a background run's answer).
 */
export function driveRun(
  app: AppContext,
  turn: TurnHandle,
  run: Omit<NewRun, "leaseOwner" | "leaseMs">,
  options: DriveOptions,
): { events: ReadableStream<NativeEvent>; recorded: () => Promise<void> } {
  const { db } = app;
  const leaseMs = app.config.agentRuns.leaseMs;
  const lastSeq = options.continuing?.lastSeq ?? 0;
  const log = new EventLogWriter(
    db,
    run.id,
    run.projectId,
    options.continuing ? undefined : { ...run, leaseOwner: PROCESS_LEASE_OWNER, leaseMs, createdAt: new Date() },
    lastSeq,
  );
  const live = liveRunsOf(db);
  live.set(run.id, (reason) => turn.cancel(reason));
  const sessions = liveSessionsOf(db);
  const sessionKey = liveSessionKey(run.projectId, run.sessionId);
  const recorded = () => log.rowWritten();
  sessions.set(sessionKey, recorded);
  const stopListening = onRunNotice(db, RUN_CANCEL_CHANNEL, run.id, () => turn.cancel("cancelled"));
  const heartbeat = setInterval(
    () => {
      void log
        .rowWritten()
        .then(() => renewLease(db, run.id, PROCESS_LEASE_OWNER, leaseMs))
        .then((lease) => {
          if (lease?.cancelRequested) turn.cancel("cancelled");
        })
        .catch((error: unknown) => logger.warn({ err: error, runId: run.id }, "renewing the run's lease failed"));
    },
    Math.max(250, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref?.();

  let client: ReadableStreamDefaultController<NativeEvent> | undefined;
  const attached = new ReadableStream<NativeEvent>({
    start(controller) {
      client = controller;
    },
    cancel() {
      client = undefined;
      if (options.cancelOnDisconnect) turn.cancel("client disconnected");
    },
  });

  const drive = (async () => {
    let seq = lastSeq;
    let paused = false;
    const reader = turn.events.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const event = next.value;
      if (event.type === "done") paused = event.stopReason === "paused";
      log.append(event);
      seq++;
      try {
        client?.enqueue(event);
      } catch {
        client = undefined;
      }
    }
    const closeClient = () => {
      try {
        client?.close();
      } catch {
        // The client went away meanwhile.
      }
    };
    const end = async () => {
      clearInterval(heartbeat);
      live.delete(run.id);
      if (sessions.get(sessionKey) === recorded) sessions.delete(sessionKey);
      (await stopListening)();
      const record = await turn.record;
      await log.end({ stopReason: record.stopReason, usage: record.usage, error: record.error, eventCount: seq });
    };
    // A paused turn's client answers its approval requests as soon as its stream ends (the AI
    // SDK's sendAutomaticallyWhen), and the answer finds the paused run to continue by its row:
    // the row is written before the stream ends, or the answer would start an unrelated run.
    if (!options.answerAfterEnd && !paused) {
      closeClient();
      return end();
    }
    try {
      await end();
    } finally {
      closeClient();
    }
  })().catch((error: unknown) => logger.error({ err: error, runId: run.id }, "ending the run failed"));
  trackDrivenRun(db, drive);

  return { events: attached, recorded };
}
