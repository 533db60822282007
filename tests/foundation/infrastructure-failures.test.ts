import { describe, expect, it } from "vitest";
import { SharedTally, type TallyStore, type TallyTotal } from "@/server/controls/shared-tally";
import { isDatabaseUnavailable, rawQuery } from "@/server/db";
import { openTestDatabase } from "../helpers/test-database";

/**
 * A catch that turned a failing database into an answer: the controls' shared counters read a
 * failed re-read as a total of 0, which admits past a budget or rate limit. The store here is a
 * table on a real database, closed under the tally to make the read fail.
 */
describe("a shared counter whose database fails", () => {
  it("keeps the total it saw, and reads it again once the database answers", async () => {
    const handle = await openTestDatabase();
    await rawQuery(handle.db, "create table tally (key text primary key, value int not null)");
    await rawQuery(handle.db, "insert into tally values ('spend', 7)");
    let db = handle.db;
    const store: TallyStore<null> = {
      add: async () => new Map(),
      read: async (keys) => {
        const rows = await rawQuery<{ key: string; value: number }>(
          db,
          "select key, value from tally where key = any($1::text[])",
          [keys],
        );
        return new Map<string, TallyTotal>(rows.map((row) => [row.key, { value: row.value }]));
      },
    };
    let clock = 0;
    const tally = new SharedTally(store, { alone: false, freshMs: 1_000, syncMs: 60_000, now: () => clock });
    try {
      expect((await tally.value("spend")).value).toBe(7);

      clock += 2_000;
      await tally.value("spend"); // aged past freshMs: read again with the next sync
      await handle.close();
      await tally.sync();
      expect((await tally.value("spend")).value).toBe(7);

      const reopened = await openTestDatabase();
      await rawQuery(reopened.db, "create table tally (key text primary key, value int not null)");
      await rawQuery(reopened.db, "insert into tally values ('spend', 9)");
      db = reopened.db;
      await tally.sync();
      expect((await tally.value("spend")).value).toBe(9);
      await reopened.close();
    } finally {
      await tally.close();
    }
  });
});

describe("what a catch may take for the database being down (isDatabaseUnavailable)", () => {
  it("is a closed database, not a statement the database refused for its data", async () => {
    const handle = await openTestDatabase();
    const refused = await rawQuery(handle.db, "select 1 / 0").then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).not.toBeNull();
    expect(isDatabaseUnavailable(refused)).toBe(false);
    await handle.close();
    const down = await rawQuery(handle.db, "select 1").then(
      () => null,
      (error: unknown) => error,
    );
    expect(down).not.toBeNull();
    expect(isDatabaseUnavailable(down)).toBe(true);
  });
});
