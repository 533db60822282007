import type { Database } from "@/server/db";

interface PostgresJsListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>;
}
interface PgliteListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * LISTEN on a channel: postgres.js opens one dedicated connection (and re-listens after a
 * reconnect), PGlite calls back in-process. Returns the function that stops listening.
 */
export async function listen(
  db: Database,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<() => Promise<void>> {
  const client = (db as unknown as { $client: PostgresJsListener | PgliteListener }).$client;
  const handle = await client.listen(channel, onNotify);
  return typeof handle === "function" ? handle : () => handle.unlisten();
}
