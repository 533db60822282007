import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await t.newProject()).key;
});
afterAll(() => t.close());

describe("read events under concurrency", () => {
  it("writes one event per concurrent retrieve before each response is sent", async () => {
    const created = await t.call("POST", "/api/applications/", { key, body: { application: { slug: "busy", data: { x: 1 } } } });
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
});
