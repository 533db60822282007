import net from "node:net";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { openDatabase, rawQuery, sendsAfterCommit, transactionThen, type DatabaseHandle } from "@/server/db";
import { projects } from "@/server/db/schema";
import { openTestDatabase } from "../helpers/test-database";

const pg = process.env.DATABASE_URL;

/**
 * `transactionThen` (server/db/after-commit.ts): statements sent with a transaction's COMMIT run
 * after it, each a transaction of its own; a rollback sends none; a failing one leaves the commit.
 * BEGIN goes with the first statement and the work's last statements with the COMMIT: two writes.
 */
describe.skipIf(!pg)("statements sent after a commit (PostgreSQL)", () => {
  let handle: DatabaseHandle;
  let listener: postgres.Sql;
  const heard: string[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase();
    listener = postgres(handle.url!, { max: 1 });
    await listener.listen("after_commit_test", (payload) => heard.push(payload));
  });
  afterAll(async () => {
    await listener?.end();
    await handle?.close();
  });

  const notify = (payload: string) => ({
    text: "select pg_notify('after_commit_test', $1 || ' ' || txid_current()::text)",
    params: [payload],
  });
  const projectNamed = async (id: string) =>
    (await handle.db.select({ name: projects.name }).from(projects).where(eq(projects.id, id)))[0]?.name;

  it("is offered on PostgreSQL without a transaction pooler", () => {
    expect(sendsAfterCommit(handle.db)).toBe(true);
  });

  it("runs them after the commit, in a transaction of their own, once the work's writes are visible", async () => {
    const id = newId();
    const txid = await transactionThen(
      handle.db,
      async (tx) => {
        await tx.insert(projects).values({ id, name: "committed" });
        const [row] = await rawQuery<{ txid: string }>(tx, "select txid_current()::text as txid");
        return { value: row!.txid, sentLast: Promise.resolve() };
      },
      () => [notify(id)],
      (error) => {
        throw error;
      },
    );
    await expect.poll(() => heard.find((p) => p.startsWith(id))).toBeDefined();
    const [, notifiedIn] = heard.find((p) => p.startsWith(id))!.split(" ");
    expect(notifiedIn).not.toBe(txid);
    expect(await projectNamed(id)).toBe("committed");
  });

  it("sends none when the work fails, rolls its writes back and gives the connection back", async () => {
    const id = newId();
    let asked = false;
    // More failures than the pool has connections (20): each must be given back, out of its transaction.
    for (let i = 0; i < 25; i++) {
      await expect(
        transactionThen(
          handle.db,
          async (tx) => {
            await tx.insert(projects).values({ id, name: "rolled back" });
            throw new Error("the work failed");
          },
          () => {
            asked = true;
            return [notify(id)];
          },
          () => {},
        ),
      ).rejects.toThrow("the work failed");
    }
    expect(asked).toBe(false);
    expect(await projectNamed(id)).toBeUndefined();
  });

  it("keeps the commit when a statement after it fails, and reports the failure", async () => {
    const id = newId();
    const failures: unknown[] = [];
    await transactionThen(
      handle.db,
      async (tx) => ({ value: await tx.insert(projects).values({ id, name: "kept" }), sentLast: Promise.resolve() }),
      () => [{ text: "select 1 / $1::int", params: [0] }, notify(id)],
      (error) => failures.push(error),
    );
    await expect.poll(() => failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/division by zero/);
    expect(await projectNamed(id)).toBe("kept");
    // The next statement was not swallowed by the failed one: each is its own transaction.
    await expect.poll(() => heard.some((p) => p.startsWith(id))).toBe(true);
  });

  it("fails with the error of a last statement that fails, and rolls every write back", async () => {
    const taken = newId();
    await handle.db.insert(projects).values({ id: taken, name: "taken" });
    const fresh = newId();
    await expect(
      transactionThen(
        handle.db,
        async (tx) => {
          await rawQuery(tx, "insert into projects (id, name) values ($1, 'fresh')", [fresh]);
          return { value: 1, sentLast: rawQuery(tx, "insert into projects (id, name) values ($1, 'again')", [taken]) };
        },
        () => [],
        () => {},
      ),
    ).rejects.toThrow(/duplicate key/);
    expect(await projectNamed(fresh)).toBeUndefined();
    expect(await projectNamed(taken)).toBe("taken");
  });

  it("writes twice to the server: BEGIN with the first statement, the last ones with the COMMIT and what follows", async () => {
    const proxy = await countingProxy(new URL(handle.url!));
    const through = await openDatabase({ url: proxy.url, pooler: "none", maxConnections: 1 });
    try {
      const once = (id: string) =>
        transactionThen(
          through.db,
          async (tx) => {
            await rawQuery(tx, "select $1::uuid as id", [id]);
            return {
              value: id,
              // More than postgres.js's 1,024 bytes, past which it wrote at once (patches/postgres+3.4.9.patch).
              sentLast: Promise.all([
                rawQuery(tx, "insert into projects (id, name) values ($1, 'pipelined')", [id]),
                rawQuery(tx, "select length($1::text)", ["x".repeat(3000)]),
              ]),
            };
          },
          () => [notify(id)],
          (error) => {
            throw error;
          },
        );
      // The first time prepares each statement on the connection (a round trip of its own).
      const first = newId();
      await once(first);
      await expect.poll(() => heard.some((p) => p.startsWith(first))).toBe(true);
      proxy.writes = 0;
      const id = newId();
      await once(id);
      await expect.poll(() => heard.some((p) => p.startsWith(id))).toBe(true);
      expect(proxy.writes).toBe(2);
      expect(await projectNamed(id)).toBe("pipelined");
    } finally {
      await through.close();
      proxy.close();
    }
  });
});

/**
 * A TCP proxy to PostgreSQL counting what clients write to it: a write the client makes while
 * waiting for an answer cannot merge with the one before, so `writes` counts round trips' writes.
 */
async function countingProxy(target: URL): Promise<{ url: string; writes: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.on("data", () => proxy.writes++);
    client.pipe(upstream).pipe(client);
    for (const s of [client, upstream])
      s.on("error", () => {}).on("close", () => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const proxy = {
    url: url.toString(),
    writes: 0,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
  return proxy;
}
