import { preparedQuery, type Executor } from "@/server/db";

/** LISTEN/NOTIFY channel that wakes webhook fan-out when events are written. */
export const EVENTS_CHANNEL = "events_written";

// Raw statement on the driver (server/db/prepared.ts), so it also runs inside a transaction
// handed over from another bundle's copy of Drizzle.
export const notifyStatement = () => ({
  toSQL: () => ({ sql: `select pg_notify('${EVENTS_CHANNEL}', '')`, params: [] }),
  execute: async (): Promise<unknown[]> => [],
});

/**
 * Delivered when the surrounding transaction commits (and never for one that rolls back), so a
 * listener that wakes always finds the events; PGlite delivers it to its own listeners too.
 */
export async function notifyEventsWritten(db: Executor): Promise<void> {
  await preparedQuery(db, "events.notify", notifyStatement).execute();
}
