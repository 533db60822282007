import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exposedNow, listenForExposureChanges } from "@/server/exposure";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

let app: TestApp;
let key: string;
let projectId: string;
let userId: string;

const agent = { instructions: { agents_md: "Greet." }, llm: { model: "openai/gpt-5-mini" }, tools: [] };

beforeAll(async () => {
  app = await createTestApp();
  ({ key, projectId, userId } = await app.newProject("exposure"));
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: { slug: "greeter", name: "Greeter", description: "Greets people", data: { parameters: { agent } } },
    },
  });
  expect(created.status).toBe(200);
});
afterAll(async () => {
  await app.close();
});

describe("exposure", () => {
  it("is empty by default", async () => {
    const res = await app.call("GET", "/api/exposure", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 0, exposures: [] });
    expect(await exposedNow(app.context.db, { projectId, userId })).toEqual([]);
  });

  it("refuses entries naming nothing of the project, repeats and clashing names, and writes nothing", async () => {
    const res = await app.call("PUT", "/api/exposure", {
      key,
      body: {
        exposures: [
          { kind: "agent", slug: "nobody", environment: "production" },
          { kind: "agent", slug: "greeter", environment: "nowhere" },
          { kind: "agent", slug: "greeter", environment: "production", name: "helper" },
          { kind: "agent", slug: "greeter", environment: "staging", name: "helper" },
          { kind: "prompt", slug: "greeter", environment: "production" },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_exposure");
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "exposures[0].slug",
      "exposures[1].environment",
      "exposures[3].name",
      "exposures[4].slug",
    ]);
    expect((await app.call("GET", "/api/exposure", { key })).body.count).toBe(0);
  });

  it("is the owner's: set, audited, announced as an event and a notification; listed once deployed", async () => {
    let notified!: (projectId: string) => void;
    const heard = new Promise<string>((resolve) => (notified = resolve));
    let listened!: () => void;
    const listening = new Promise<void>((resolve) => (listened = resolve));
    const listener = listenForExposureChanges(app.context.db, (id) => notified(id), { onListening: () => listened() });
    try {
      // A change committed before the LISTEN took hold is not heard by this listener: wait for it.
      if (!listener.listening) await within(30_000, "the exposure listener's LISTEN", listening);
      const res = await app.call("PUT", "/api/exposure", {
        key,
        body: {
          exposures: [
            { kind: "agent", slug: "greeter", environment: "production" },
            { kind: "agent", slug: "greeter", environment: "staging", name: "greeter-preview" },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.exposures).toEqual([
        { kind: "agent", slug: "greeter", environment: "production", name: "greeter@production", custom_name: false },
        { kind: "agent", slug: "greeter", environment: "staging", name: "greeter-preview", custom_name: true },
      ]);
      expect(await within(30_000, "the exposure change's notification", heard)).toBe(projectId);
    } finally {
      await listener.stop();
    }
    const audit = await app.call("GET", "/api/audit?action=exposure.updated", { key });
    expect(audit.body.audit_entries[0]).toMatchObject({ action: "exposure.updated", target: { type: "exposure" } });
    const events = await app.call("POST", "/api/events/query", {
      key,
      body: { event_type: "exposure.settings.updated" },
    });
    expect(events.status).toBe(200);
    expect(events.body.count).toBeGreaterThan(0);

    // Nothing deployed yet: nothing to call.
    expect(await exposedNow(app.context.db, { projectId, userId })).toEqual([]);
    const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
      key,
      body: { workflow_ref: { slug: "greeter" }, environment_ref: { slug: "production" } },
    });
    expect(deployed.status).toBe(200);
    expect(await exposedNow(app.context.db, { projectId, userId })).toMatchObject([
      { kind: "agent", name: "greeter@production", title: "Greeter", description: "Greets people", version: "1" },
    ]);
  });

  it("another project sees none of it", async () => {
    const other = await app.newProject("exposure-other");
    const res = await app.call("GET", "/api/exposure", { key: other.key });
    expect(res.body).toEqual({ count: 0, exposures: [] });
  });
});
