import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await t.newProject()).key;
});
afterAll(() => t.close());

describe("versioning smoke", () => {
  it("create, commit, retrieve, log, deploy, environment retrieve", async () => {
    const created = await t.call("POST", "/api/applications/", {
      key,
      body: { application: { name: "My App", data: { parameters: { x: 1 } } } },
    });
    expect(created.status).toBe(200);
    expect(created.body.application.slug).toBe("my-app");
    const variantId = created.body.application_variant.id;
    expect(created.body.application_revision.version).toBe("1");

    const c2 = await t.call("POST", "/api/applications/revisions/commit", {
      key,
      body: {
        application_revision_commit: {
          application_variant_id: variantId,
          message: "two",
          data: { parameters: { x: 2 } },
        },
      },
    });
    expect(c2.status).toBe(200);
    expect(c2.body.application_revision.version).toBe("2");

    const r = await t.call("POST", "/api/applications/revisions/retrieve", {
      key,
      body: { application_ref: { slug: "my-app" } },
    });
    expect(r.status).toBe(200);
    expect(r.body.application_revision.data).toEqual({ parameters: { x: 2 } });

    const log = await t.call("POST", "/api/applications/revisions/log", {
      key,
      body: { application: { application_variant_id: variantId } },
    });
    expect(log.body.count).toBe(2);
    expect(log.body.application_revisions[0].data).toBeUndefined();

    const dep = await t.call("POST", "/api/applications/revisions/deploy", {
      key,
      body: {
        application_ref: { slug: "my-app" },
        application_revision_ref: { version: "1" },
        environment_ref: { slug: "staging" },
      },
    });
    expect(dep.body).toMatchObject({ count: 1 });
    expect(dep.status).toBe(200);
    const env = await t.call("POST", "/api/applications/revisions/retrieve", {
      key,
      body: { environment_ref: { slug: "staging" }, application_ref: { slug: "my-app" } },
    });
    expect(env.status).toBe(200);
    expect(env.body.application_revision.version).toBe("1");
    expect(env.body.retrieval_info.key).toBe("my-app.revision");

    const events = await t.call("POST", "/api/events/query", {
      key,
      body: { event_type: "environments.revisions.committed" },
    });
    expect(events.body.count).toBe(1);
    expect(events.body.events[0].attributes.diff.created["my-app.revision"]).toBeDefined();
  });
});
