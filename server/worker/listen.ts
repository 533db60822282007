import { notificationsOf, type Database } from "@/server/db";
import { sharedListenerOf } from "./shared-listener";

interface PgliteListener {
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * LISTEN on a channel for wake-ups. PostgreSQL: on the process's one listening connection to the
 * database (`shared-listener.ts`, on the direct URL behind a transaction pooler), resolved once
 * the channel is listened to, rejected (and given up) if that first attempt fails; after a lost
 * connection it listens again by itself and calls `onResumed`, since notifications in between
 * were missed. PGlite calls back in-process. Behind a transaction pooler without a direct URL
 * there is no session to listen on: nothing is delivered and callers rely on their polls
 * (server/db/README.md). Returns the function that stops listening.
 */
export async function listen(
  db: Database,
  channel: string,
  onNotify: (payload: string) => void,
  onResumed?: () => void,
): Promise<() => Promise<void>> {
  const notifications = notificationsOf(db);
  if (notifications.kind === "unavailable") return async () => {};
  if (notifications.kind === "in-process") {
    return (db as unknown as { $client: PgliteListener }).$client.listen(channel, onNotify);
  }
  const { url } = notifications;
  return new Promise((resolve, reject) => {
    let settled = false;
    const subscribed = sharedListenerOf(db).add(url, channel, {
      onChange: onNotify,
      onListening() {
        if (settled) return onResumed?.();
        settled = true;
        // Maybe called within `add` (its channel already listened to): `subscribed` is read later.
        resolve(() => subscribed.stop());
      },
      onLost() {},
      onFailed(error) {
        if (settled) return;
        settled = true;
        void subscribed.stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
}
