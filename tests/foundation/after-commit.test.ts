import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { rawQuery, sendsAfterCommit, transactionThen, type DatabaseHandle } from "@/server/db";
import { projects } from "@/server/db/schema";
import { openTestDatabase } from "../helpers/test-database";

const pg = process.env.DATABASE_URL;

/**
 * `transactionThen` (server/db/after-commit.ts): statements sent with a transaction's COMMIT run
 * after it, each a transaction of its own; a rollback sends none; a failing one leaves the commit.
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
        return row!.txid;
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
      (tx) => tx.insert(projects).values({ id, name: "kept" }),
      () => [{ text: "select 1 / $1::int", params: [0] }, notify(id)],
      (error) => failures.push(error),
    );
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/division by zero/);
    expect(await projectNamed(id)).toBe("kept");
    // The next statement was not swallowed by the failed one: each is its own transaction.
    await expect.poll(() => heard.some((p) => p.startsWith(id))).toBe(true);
  });
});
