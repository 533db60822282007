import { randomBytes } from "node:crypto";
import { CHANGE_LISTENER_APPLICATION } from "./change-listener";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rawQuery, type DatabaseHandle } from "@/server/db";
import { openTestDatabase } from "@/tests/helpers/test-database";
import { within } from "@/tests/helpers/within";
import { NotifiedCache, type NotifiedCacheOptions } from "./notified-cache";

const uniqueChannel = () => `notified_cache_${randomBytes(4).toString("hex")}`;

/** `cache.when(probe)` (checked on every notification, listen and loss), bounded: a stall fails naming what. */
const heard = (cache: NotifiedCache<string>, probe: () => boolean, what: string) =>
  within(5_000, what, cache.when(probe));

describe("NotifiedCache while listening", () => {
  let handle: DatabaseHandle;
  const caches: NotifiedCache<string>[] = [];
  const listening = async (options: Partial<NotifiedCacheOptions>) => {
    const channel = uniqueChannel();
    const cache = new NotifiedCache<string>(handle.db, {
      channel,
      onNotify: "drop-payload-key",
      ttlWithoutListenMs: 1_000,
      ...options,
    });
    caches.push(cache);
    await heard(cache, () => cache.serving, "the cache to listen");
    return { cache, notify: (payload: string) => rawQuery(handle.db, "select pg_notify($1, $2)", [channel, payload]) };
  };
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(caches.map((cache) => cache.stop()));
    await handle.close();
  });

  it("does not store a read whose ticket was taken before a drop", async () => {
    const { cache } = await listening({});
    const stale = cache.ticket();
    cache.forget("a");
    cache.set("a", "old", 0, stale);
    expect(cache.get("a", 0)).toBeUndefined();
    cache.set("a", "new", 0, cache.ticket());
    expect(cache.get("a", 0)).toBe("new");

    const beforePredicate = cache.ticket();
    cache.forgetWhere((value) => value === "new");
    expect(cache.get("a", 0)).toBeUndefined();
    cache.set("a", "old", 0, beforePredicate);
    expect(cache.size).toBe(0);
  });

  it("drops the key a notification names, or everything", async () => {
    const byKey = await listening({ onNotify: "drop-payload-key" });
    byKey.cache.set("a", "1", 0, byKey.cache.ticket());
    byKey.cache.set("b", "2", 0, byKey.cache.ticket());
    await byKey.notify("a");
    await heard(byKey.cache, () => byKey.cache.get("a", 0) === undefined, "the notification naming a");
    expect(byKey.cache.get("b", 0)).toBe("2");

    const all = await listening({ onNotify: "clear" });
    all.cache.set("a", "1", 0, all.cache.ticket());
    all.cache.set("b", "2", 0, all.cache.ticket());
    const ticket = all.cache.ticket();
    await all.notify("");
    await heard(all.cache, () => all.cache.size === 0, "the notification clearing it");
    // A read begun before the notification is not stored after it.
    all.cache.set("a", "1", 0, ticket);
    expect(all.cache.size).toBe(0);
  });

  it("serves for ttlMs while listening (no TTL when absent), and empties itself at maxEntries", async () => {
    const { cache } = await listening({ ttlMs: 100, ttlWithoutListenMs: 10, maxEntries: 2 });
    cache.set("a", "1", 1_000, cache.ticket());
    expect(cache.get("a", 1_099)).toBe("1");
    expect(cache.get("a", 1_100)).toBeUndefined();

    const forever = await listening({});
    forever.cache.set("a", "1", 0, forever.cache.ticket());
    expect(forever.cache.get("a", Number.MAX_SAFE_INTEGER)).toBe("1");

    cache.set("a", "1", 0, cache.ticket());
    cache.set("b", "2", 0, cache.ticket());
    cache.set("c", "3", 0, cache.ticket());
    expect(cache.size).toBe(1);
    expect(cache.get("c", 0)).toBe("3");
  });
});

// PGlite delivers notifications in-process: it can neither lose its listener nor sit behind a pooler.
describe.skipIf(!process.env.DATABASE_URL)("NotifiedCache on PostgreSQL", () => {
  let handle: DatabaseHandle;
  let pooled: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
    // Opened as behind a transaction pooler without a direct URL: nothing can listen.
    pooled = await openDatabase({ url: handle.url!, pooler: "transaction", maxConnections: 1 });
  });
  afterAll(async () => {
    await pooled.close();
    await handle.close();
  });

  it("in expiry mode serves at once and for at most ttlWithoutListenMs (the caller's, when given)", async () => {
    const cache = new NotifiedCache<string>(pooled.db, {
      channel: uniqueChannel(),
      onNotify: "clear",
      ttlMs: 5_000,
      ttlWithoutListenMs: 1_000,
    });
    expect(cache.serving).toBe(true);
    cache.set("a", "1", 0, cache.ticket());
    expect(cache.get("a", 999)).toBe("1");
    expect(cache.get("a", 1_000)).toBeUndefined();
    cache.set("a", "1", 0, cache.ticket(), 200);
    expect(cache.get("a", 199)).toBe("1");
    expect(cache.get("a", 200)).toBeUndefined();
    cache.set("a", "1", 0, cache.ticket(), 60_000);
    expect(cache.get("a", 4_999)).toBe("1");
    expect(cache.get("a", 5_000)).toBeUndefined();
    cache.set("a", "1", 0, cache.ticket(), 0);
    expect(cache.size).toBe(0);
    await cache.stop();
  });

  it("empties itself when its listener is lost, serves nothing until it listens again", async () => {
    const channel = uniqueChannel();
    const cache = new NotifiedCache<string>(handle.db, { channel, onNotify: "clear", ttlWithoutListenMs: 1_000 });
    await heard(cache, () => cache.serving, "the cache to listen");
    cache.set("a", "1", 0, cache.ticket());
    await rawQuery(
      handle.db,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
      [CHANGE_LISTENER_APPLICATION],
    );
    await heard(cache, () => !cache.serving, "the listener's loss");
    expect(cache.size).toBe(0);
    cache.set("a", "1", 0, cache.ticket());
    expect(cache.get("a", 0)).toBeUndefined();
    await heard(cache, () => cache.serving, "the cache to listen again");
    cache.set("a", "1", 0, cache.ticket());
    expect(cache.get("a", 0)).toBe("1");
    await cache.stop();
  });
});
