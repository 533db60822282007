import { entityKind } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainEvents, emitEvent } from "@/server/events/emit";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
let projectId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ key, projectId } = await t.newProject());
});
afterAll(() => t.close());

describe("read events under concurrency", () => {
  it("writes one event per concurrent retrieve, all visible to the next events query", async () => {
    const created = await t.call("POST", "/api/applications/", {
      key,
      body: { application: { slug: "busy", data: { parameters: { x: 1 } } } },
    });
    const revisionId = created.body.application_revision.id;
    const responses = await Promise.all(
      Array.from({ length: 25 }, () =>
        t.call("POST", "/api/applications/revisions/retrieve", { key, body: { application_ref: { slug: "busy" } } }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const events = await t.call("POST", "/api/events/query", {
      key,
      body: { event_type: "applications.revisions.retrieved", windowing: { limit: 100 } },
    });
    expect(events.body.count).toBe(25);
    const ids = new Set(events.body.events.map((e: { event_id: string }) => e.event_id));
    expect(ids.size).toBe(25);
    for (const e of events.body.events) expect(e.attributes.references.application_revision.id).toBe(revisionId);
  });

  it("writes batches larger than one insert takes, keeping every row's attributes and time", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const attributes = (i: number) => ({ n: i, nested: { list: [i, "x"], quote: 'say "hi"', unicode: "héllo ✓" } });
    await Promise.all(
      Array.from({ length: 2500 }, (_, i) =>
        emitEvent(t.database.db, { projectId, type: "testcases.fetched", attributes: attributes(i) }, at),
      ),
    );
    const seen = new Map<number, { attributes: unknown; timestamp: string }>();
    let next: string | undefined;
    do {
      const page = await t.call("POST", "/api/events/query", {
        key,
        body: { event_type: "testcases.fetched", windowing: { limit: 1000, next } },
      });
      for (const e of page.body.events) seen.set(e.attributes.n, e);
      next = page.body.windowing?.next;
    } while (next);
    expect(seen.size).toBe(2500);
    for (const i of [0, 999, 1000, 2499]) {
      expect(seen.get(i)!.attributes).toEqual(attributes(i));
      expect(seen.get(i)!.timestamp).toBe("2026-01-02T03:04:05.678Z");
    }
  });

  it("writes the good rows of a batch that holds a bad one, and keeps accepting events", async () => {
    const db = t.database.db;
    const emit = (n: number, text = "fine") =>
      emitEvent(db, { projectId, type: "testcases.queried", attributes: { n, text } });
    // A lone surrogate is valid in a JavaScript string and refused by jsonb: the batch fails.
    await Promise.all([emit(1), emit(2, "bad \ud800"), emit(3)]);
    await drainEvents(db);
    await emit(4);
    const page = await t.call("POST", "/api/events/query", {
      key,
      body: { event_type: "testcases.queried", windowing: { limit: 10 } },
    });
    expect(page.body.events.map((e: { attributes: { n: number } }) => e.attributes.n).sort()).toEqual([1, 3, 4]);
  });

  it("writes an event in the transaction it is given, even one made by another copy of Drizzle", async () => {
    // Next.js bundles a copy of Drizzle per route bundle: the playground's tRPC bundle sees
    // transactions of the app's database whose class is not the one its own copy exports.
    class ForeignPgTransaction {
      static readonly [entityKind]: string = "PgTransaction";
    }
    class ForeignPgliteTransaction extends ForeignPgTransaction {
      static readonly [entityKind]: string = "PgliteTransaction";
    }
    await t.database.db.transaction(async (tx) => {
      // Its own class, the transaction's session and query builders (the redaction settings are
      // read through it when this process has not cached them).
      const real = tx as unknown as Record<string, unknown> &
        Record<"select" | "insert" | "update" | "delete" | "execute", (...args: unknown[]) => unknown>;
      const foreign = Object.assign(Object.create(ForeignPgliteTransaction.prototype), {
        session: real.session,
        select: real.select.bind(tx),
        insert: real.insert.bind(tx),
        update: real.update.bind(tx),
        delete: real.delete.bind(tx),
        execute: real.execute.bind(tx),
      });
      await emitEvent(foreign, { projectId, type: "queries.revisions.committed", attributes: { n: 7 } });
    });
    const page = await t.call("POST", "/api/events/query", {
      key,
      body: { event_type: "queries.revisions.committed" },
    });
    expect(page.body.events.map((e: { attributes: { n: number } }) => e.attributes.n)).toEqual([7]);
  });
});
