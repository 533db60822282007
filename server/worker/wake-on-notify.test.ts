import { randomBytes } from "node:crypto";
import { setTimeout } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rawQuery, type DatabaseHandle } from "@/server/db";
import { closedPort } from "@/tests/helpers/closed-port";
import { openTestDatabase } from "@/tests/helpers/test-database";
import { within } from "@/tests/helpers/within";
import { listenForChanges } from "./change-listener";
import { listen } from "./listen";
import { CHANGE_LISTENER_APPLICATION } from "./shared-listener";
import { wakeOnNotify } from "./wake-on-notify";

const uniqueChannel = () => `wake_on_notify_${randomBytes(4).toString("hex")}`;

/** A loop's `wake`, counted: `next()` resolves at the wake after the ones counted so far. */
function countedLoop() {
  let wakes = 0;
  let waiters: Array<() => void> = [];
  return {
    get wakes() {
      return wakes;
    },
    wake() {
      wakes += 1;
      for (const resolve of waiters) resolve();
      waiters = [];
    },
    next: (what: string) => within(5_000, what, new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

describe("wakeOnNotify", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  const notify = (channel: string, payload = "") => rawQuery(handle.db, "select pg_notify($1, $2)", [channel, payload]);

  it("wakes each loop on its own channel, and no more once stopped", async () => {
    const [a, b] = [uniqueChannel(), uniqueChannel()];
    const [loopA, loopB] = [countedLoop(), countedLoop()];
    const wakes = wakeOnNotify(handle.db, "test worker", [
      [a, loopA],
      [b, loopB],
    ]);
    await within(5_000, "the worker to listen", wakes.listening);
    const wokenA = loopA.next("a wake on a");
    await notify(a);
    await wokenA;
    expect(loopB.wakes).toBe(0);
    await wakes.stop();
    // Notifications reach a listener in commit order: a marker sent after `a` is heard after it would be.
    const marker = uniqueChannel();
    let markerHeard = () => {};
    const heard = new Promise<void>((resolve) => (markerHeard = resolve));
    const stopMarker = await listen(handle.db, marker, () => markerHeard());
    await notify(a);
    await notify(marker);
    await within(5_000, "the marker notification", heard);
    await stopMarker();
    expect(loopA.wakes).toBe(1);
  });
});

// PGlite delivers notifications in-process: there is no backend to count, lose or fail to reach.
describe.skipIf(!process.env.DATABASE_URL)("the process's LISTENs on PostgreSQL", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  const notify = (channel: string) => rawQuery(handle.db, "select pg_notify($1, '')", [channel]);
  const listeningBackends = async () =>
    (
      await rawQuery<{ application_name: string }>(
        handle.db,
        `select application_name from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and query ilike 'listen%'`,
      )
    ).map((row) => row.application_name);

  it("share one backend (caches and wake-ups), which wakes the loops again after its loss", async () => {
    const [cacheChannel, wakeChannel, otherWakeChannel, plainChannel] = [1, 2, 3, 4].map(uniqueChannel);
    let cacheListening = false;
    let cacheListens = 0;
    const cache = listenForChanges(handle.db, cacheChannel, {
      onChange: () => {},
      onListening: () => ((cacheListening = true), (cacheListens += 1)),
      onLost: () => (cacheListening = false),
    });
    const [loop, otherLoop] = [countedLoop(), countedLoop()];
    const wakes = wakeOnNotify(handle.db, "test worker", [
      [wakeChannel, loop],
      [otherWakeChannel, otherLoop],
    ]);
    const unlisten = await listen(handle.db, plainChannel, () => {});
    await within(5_000, "the worker to listen", wakes.listening);
    expect(cacheListening).toBe(true);
    expect(await listeningBackends()).toEqual([CHANGE_LISTENER_APPLICATION]);

    const woken = loop.next("a wake on its channel");
    await notify(wakeChannel);
    await woken;

    // Lost: every loop is woken once its channel is listened to again (a notification may have
    // been missed meanwhile), with no notification sent.
    const [resumed, otherResumed] = [loop.next("the wake on listening again"), otherLoop.next("the other's")];
    await rawQuery(
      handle.db,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
      [CHANGE_LISTENER_APPLICATION],
    );
    await Promise.all([resumed, otherResumed]);
    expect(cacheListens).toBe(2);
    expect(await listeningBackends()).toEqual([CHANGE_LISTENER_APPLICATION]);
    const wokenAgain = loop.next("a wake on its channel after the loss");
    await notify(wakeChannel);
    await wokenAgain;

    await Promise.all([wakes.stop(), unlisten(), cache.stop()]);
    expect(await listeningBackends()).toEqual([]);
  });

  it("ends with the database, with the LISTENs nobody stopped", async () => {
    // The server itself, also when the suite runs through a transaction pooler (nothing listens through one).
    const other = await openDatabase({ url: handle.directUrl ?? handle.url!, pooler: "none", maxConnections: 1 });
    await listen(other.db, uniqueChannel(), () => {});
    expect(await listeningBackends()).toEqual([CHANGE_LISTENER_APPLICATION]);
    await other.close();
    // The backend leaves pg_stat_activity moments after its client has gone.
    const deadline = Date.now() + 2_000;
    while ((await listeningBackends()).length > 0 && Date.now() < deadline) await setTimeout(20);
    expect(await listeningBackends()).toEqual([]);
  });

  it("a LISTEN that cannot be set up leaves the loops polling: `listening` settles, stop() works", async () => {
    const url = new URL(handle.url!);
    url.port = String(await closedPort());
    const unreachable = await openDatabase({ url: url.toString(), pooler: "none", maxConnections: 1 });
    try {
      await expect(listen(unreachable.db, uniqueChannel(), () => {})).rejects.toThrow();
      const wakes = wakeOnNotify(unreachable.db, "test worker", [[uniqueChannel(), countedLoop()]]);
      await within(5_000, "listening to settle", wakes.listening);
      await wakes.stop();
    } finally {
      await unreachable.close();
    }
  });
});
