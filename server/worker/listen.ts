import postgres from "postgres";
import { processWide } from "@/server/core/process-wide";
import { notificationsOf, onDatabaseClose, type Database } from "@/server/db";

interface PostgresJsListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>;
}
interface PgliteListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * LISTEN on a channel: postgres.js opens one dedicated connection (and re-listens after a
 * reconnect), on the direct URL when the pool goes through a transaction pooler; PGlite calls
 * back in-process. Behind a transaction pooler without a direct URL there is no session to
 * listen on: nothing is delivered and callers rely on their polls (server/db/README.md).
 * Returns the function that stops listening.
 */
export async function listen(
  db: Database,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<() => Promise<void>> {
  const notifications = notificationsOf(db);
  if (notifications.kind === "unavailable") return async () => {};
  const client = (db as unknown as { $client: PostgresJsListener | PgliteListener }).$client;
  const listener = notifications.kind === "session" && notifications.direct ? directClientFor(db) : client;
  const handle = await listener.listen(channel, onNotify);
  return typeof handle === "function" ? handle : () => handle.unlisten();
}

/** One client on the direct URL per database, for its listeners; closed with the database. */
const directClientFor = processWide<Database, PostgresJsListener>("direct-listeners", (db) => {
  const notifications = notificationsOf(db);
  const client = postgres((notifications as { url: string }).url, { max: 1, onnotice: () => {} });
  onDatabaseClose(db, () => client.end({ timeout: 1 }));
  return client;
});
