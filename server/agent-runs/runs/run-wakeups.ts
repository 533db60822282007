import { sql } from "drizzle-orm";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import type { Database, Executor } from "@/server/db";
import { listen } from "@/server/worker";

/** Payload: a run id whose event log grew or whose status changed. */
export const RUN_EVENTS_CHANNEL = "agent_run_events";
/** Payload: a run id someone asked to cancel (its driving process stops it). */
export const RUN_CANCEL_CHANNEL = "agent_run_cancel";

type Channel = typeof RUN_EVENTS_CHANNEL | typeof RUN_CANCEL_CHANNEL;
type Waiter = () => void;

interface Hub {
  ready: Promise<void>;
  waiters: Record<Channel, Map<string, Set<Waiter>>>;
}

/**
 * One LISTEN per channel per process and database (PostgreSQL: the process's shared listening
 * connection, server/worker/; PGlite: in-process), fanned out by run id to whoever waits for
 * that run here. A listener that cannot be set up is logged and the waiters fall back to their
 * polls.
 */
const hubFor = processWide<Database, Hub>("agent-run-wakeups", (db) => {
  const waiters: Hub["waiters"] = { [RUN_EVENTS_CHANNEL]: new Map(), [RUN_CANCEL_CHANNEL]: new Map() };
  const dispatch = (channel: Channel) => (runId: string) => {
    for (const wake of [...(waiters[channel].get(runId) ?? [])]) wake();
  };
  const ready = Promise.all([
    listen(db, RUN_EVENTS_CHANNEL, dispatch(RUN_EVENTS_CHANNEL)),
    listen(db, RUN_CANCEL_CHANNEL, dispatch(RUN_CANCEL_CHANNEL)),
  ]).then(
    () => undefined,
    (error: unknown) => logger.warn({ err: error }, "run notifications unavailable; followers poll"),
  );
  return { ready, waiters };
});

/** Calls `wake` on every notification for `runId` on `channel` until the returned function is called. */
export async function onRunNotice(db: Database, channel: Channel, runId: string, wake: Waiter): Promise<() => void> {
  const hub = hubFor(db);
  const forChannel = hub.waiters[channel];
  const set = forChannel.get(runId) ?? new Set<Waiter>();
  set.add(wake);
  forChannel.set(runId, set);
  await hub.ready;
  return () => {
    set.delete(wake);
    if (!set.size && forChannel.get(runId) === set) forChannel.delete(runId);
  };
}

/** Delivered on commit (inside a transaction) or at once; every process listening wakes its waiters. */
export async function noticeRun(db: Executor, channel: Channel, runId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${runId})`);
}
