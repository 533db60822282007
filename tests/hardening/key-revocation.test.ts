import { PROJECT_SETUPS } from "@/server/boot";
import { CHANGE_LISTENER_APPLICATION } from "@/server/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey, createAccount, revokeApiKey } from "@/server/auth";
import { principalCacheFor } from "@/server/auth/principal-cache";
import { openDatabase, rawQuery, type DatabaseHandle } from "@/server/db";
import { openTestDatabase } from "../helpers/test-database";
import { within } from "../helpers/within";

const refusal = (db: DatabaseHandle["db"], header: string) =>
  authenticateApiKey(db, header).then(
    () => null,
    (error: { code?: string }) => error.code ?? "error",
  );

// The revocation window on another process: a revoked key stops working there as soon as the
// revocation's notification arrives (server/auth/principal-cache.ts), and a process that lost its
// listener answers from the database until it listens again. Two database handles over one
// database stand for two app processes.
describe.skipIf(!process.env.DATABASE_URL)("a key revoked by one process, on another", () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  beforeAll(async () => {
    first = await openTestDatabase();
    // Configured as the first (behind a pooler: its direct URL for LISTEN).
    second = await openDatabase({
      url: first.url!,
      pooler: first.pooler,
      directUrl: first.directUrl,
      maxConnections: 2,
    });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("is refused there as soon as the revocation's notification arrives", async () => {
    const account = await createAccount(first.db, PROJECT_SETUPS, {
      email: `revoke-${Date.now()}@test.local`,
      projectName: "revoke",
    });
    const header = `ApiKey ${account.secret}`;
    // Cached on the second process, once its listener is up (listening empties the cache).
    const cache = principalCacheFor(second.db);
    await listening(cache);
    const principal = await authenticateApiKey(second.db, header);
    await authenticateApiKey(second.db, header);
    expect(cache.size).toBeGreaterThan(0);
    // Checked after each notification the second process hears (each moves its ticket on), until
    // the revocation's has arrived: no timer.
    let ticket = cache.ticket();
    const revokedAt = Date.now();
    await revokeApiKey(first.db, account.project.id, principal.apiKeyId!);
    await within(
      4_000,
      "the revocation's notification",
      (async () => {
        for (;;) {
          await cache.when(() => cache.ticket() !== ticket);
          ticket = cache.ticket();
          if ((await refusal(second.db, header)) === "revoked_api_key") return;
        }
      })(),
    );
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it("answers from the database once its listener is lost: a missed notification leaves no revoked key usable", async () => {
    const account = await createAccount(first.db, PROJECT_SETUPS, {
      email: `revoke-lost-${Date.now()}@test.local`,
      projectName: "revoke lost",
    });
    const header = `ApiKey ${account.secret}`;
    const cache = principalCacheFor(second.db);
    await listening(cache);
    const principal = await authenticateApiKey(second.db, header);
    // Revoked behind the service's back, without a notification: the cache still answers.
    await rawQuery(first.db, "update api_keys set revoked_at = now() where id = $1", [principal.apiKeyId]);
    expect(await refusal(second.db, header)).toBeNull();
    await rawQuery(
      first.db,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
      [CHANGE_LISTENER_APPLICATION],
    );
    // From the loss on, and after listening again, the database answers.
    await within(
      3_000,
      "the listener's loss",
      cache.when(() => !cache.serving),
    );
    expect(cache.size).toBe(0);
    expect(await refusal(second.db, header)).toBe("revoked_api_key");
    await listening(cache, 5_000);
    expect(await refusal(second.db, header)).toBe("revoked_api_key");
  });
});

describe("the key cache of one process", () => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it("does not store a key read before a revocation that emptied it meanwhile", async () => {
    const account = await createAccount(db.db, PROJECT_SETUPS, {
      email: `revoke-race-${Date.now()}@test.local`,
      projectName: "revoke race",
    });
    const cache = principalCacheFor(db.db);
    await listening(cache);
    const principal = await authenticateApiKey(db.db, `ApiKey ${account.secret}`);
    const ticket = cache.ticket();
    cache.forgetKey(principal.apiKeyId!);
    cache.set("a-hash", principal, Date.now(), ticket);
    expect(cache.get("a-hash", Date.now())).toBeUndefined();
    cache.set("a-hash", principal, Date.now(), cache.ticket());
    expect(cache.get("a-hash", Date.now())).toEqual(principal);
  });

  it("refuses a revoked key at once in the process that revoked it", async () => {
    const account = await createAccount(db.db, PROJECT_SETUPS, {
      email: `revoke-here-${Date.now()}@test.local`,
      projectName: "revoke here",
    });
    const header = `ApiKey ${account.secret}`;
    const principal = await authenticateApiKey(db.db, header);
    await authenticateApiKey(db.db, header);
    await revokeApiKey(db.db, account.project.id, principal.apiKeyId!);
    expect(await refusal(db.db, header)).toBe("revoked_api_key");
  });
});

/** The cache's listener up (listening empties the cache, so a test caches after it): awaited, bounded. */
function listening(cache: ReturnType<typeof principalCacheFor>, ms = 3_000): Promise<void> {
  return within(
    ms,
    "the key cache to listen",
    cache.when(() => cache.serving),
  );
}
