import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { rawQuery } from "@/server/db";
import { drainEvents, emitEvent } from "@/server/events/emit";
import { eventually } from "../helpers/eventually";
import { createTestApp, type TestApp } from "../helpers/test-app";

// The outbox has no foreign key to projects (server/events/README.md): these tests hold its two
// duties, which the inserts' key-share lock and the `projects_delete_events` trigger keep.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function eventCount(projectId: string): Promise<number> {
  const [row] = await rawQuery<{ n: number }>(
    t.database.db,
    "select count(*)::int as n from events where project_id = $1",
    [projectId],
  );
  return row.n;
}

describe("events and their project", () => {
  it("deletes a project's events with the project, and only that project's", async () => {
    const gone = await t.newProject("gone");
    const kept = await t.newProject("kept");
    const db = t.database.db;
    for (const { projectId } of [gone, kept]) {
      await emitEvent(db, { projectId, type: "testcases.fetched", attributes: { n: 1 } });
      await db.transaction((tx) => emitEvent(tx, { projectId, type: "queries.revisions.committed", attributes: {} }));
    }
    await drainEvents(db);
    const before = await eventCount(gone.projectId);
    expect(before).toBeGreaterThanOrEqual(2);
    const keptBefore = await eventCount(kept.projectId);

    await db.execute(sql`delete from projects where id = ${gone.projectId}`);

    expect(await eventCount(gone.projectId)).toBe(0);
    expect(await eventCount(kept.projectId)).toBe(keptBefore);
  });

  it("refuses an event in a transaction for a project that does not exist, writing nothing", async () => {
    const missing = newId();
    await expect(
      t.database.db.transaction((tx) =>
        emitEvent(tx, { projectId: missing, type: "queries.revisions.committed", attributes: {} }),
      ),
    ).rejects.toThrow(`project ${missing} does not exist`);
    expect(await eventCount(missing)).toBe(0);
  });

  it("does not write the read events of a project that does not exist, and writes the others of the batch", async () => {
    const { projectId } = await t.newProject("live");
    const missing = newId();
    const db = t.database.db;
    await Promise.all([
      emitEvent(db, { projectId, type: "testcases.fetched", attributes: { n: 1 } }),
      emitEvent(db, { projectId: missing, type: "testcases.fetched", attributes: { n: 2 } }),
      emitEvent(db, { projectId, type: "testcases.fetched", attributes: { n: 3 } }),
    ]);
    await drainEvents(db);
    expect(await eventCount(missing)).toBe(0);
    expect(await eventCount(projectId)).toBe(2);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "makes a project's delete wait for a transaction writing its event, then deletes that event too",
    async () => {
      const { projectId } = await t.newProject("raced");
      const db = t.database.db;
      let deleted: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await emitEvent(tx, { projectId, type: "queries.revisions.committed", attributes: { raced: true } });
        // Another connection deletes the project while this transaction, holding its event, is open.
        // (`then` starts it: Drizzle's queries are lazy.)
        deleted = db.execute(sql`delete from projects where id = ${projectId}`).then(() => undefined);
        // The delete waits on this transaction's lock: only PostgreSQL's view of its backends shows it.
        await eventually("the delete to wait for the event's project lock", async () => {
          const [row] = await rawQuery<{ n: number }>(
            db,
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'delete from projects%'",
          );
          return row.n === 1;
        });
      });
      await deleted;
      expect(await eventCount(projectId)).toBe(0);
    },
  );
});
