import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSubscriptions } from "@/server/db/schema";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
let otherKey: string;
const MISSING = "01900000-0000-7000-8000-000000000000";

beforeAll(async () => {
  t = await createTestApp();
  key = (await t.newProject()).key;
  otherKey = (await t.newProject("other")).key;
});
afterAll(() => t.close());

const draft = (fields: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  subscription: {
    name: "Deploy hook",
    data: { url: "https://example.com/hook", event_types: ["environments.revisions.committed"], ...data },
    ...fields,
  },
});

async function create(body: unknown, k = key) {
  return t.call("POST", "/api/webhooks/subscriptions/", { key: k, body });
}

describe("subscriptions API", () => {
  it("creates with a generated secret shown once, stored sealed, never returned again", async () => {
    const res = await create(
      draft({ tags: { team: "x" } }, { headers: { "X-Custom": "1" }, payload_fields: { type: "$.event.event_type" } }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.subscription;
    expect(res.body.count).toBe(1);
    expect(s.secret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(s).toMatchObject({
      name: "Deploy hook",
      tags: { team: "x" },
      data: {
        url: "https://example.com/hook",
        event_types: ["environments.revisions.committed"],
        auth_mode: "signature",
        headers: { "X-Custom": "1" },
        payload_fields: { type: "$.event.event_type" },
      },
      flags: { is_active: true },
    });
    const [row] = await t.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, s.id));
    expect(row.sealedSecret).not.toContain(s.secret);
    expect(t.context.secrets.open(row.sealedSecret)).toBe(s.secret);
    const fetched = await t.call("GET", `/api/webhooks/subscriptions/${s.id}`, { key });
    expect(fetched.status).toBe(200);
    expect(fetched.body.subscription.secret).toBeUndefined();
    expect(JSON.stringify(fetched.body)).not.toContain(s.secret);
  });

  it("keeps meta as sent, answers it, and replaces it with the rest of the subscription", async () => {
    const created = (await create(draft({ meta: { owner: "ops", runbook: { url: "https://x" } } }))).body.subscription;
    expect(created.meta).toEqual({ owner: "ops", runbook: { url: "https://x" } });
    const fetched = await t.call("GET", `/api/webhooks/subscriptions/${created.id}`, { key });
    expect(fetched.body.subscription.meta).toEqual({ owner: "ops", runbook: { url: "https://x" } });
    const replaced = await t.call("PUT", `/api/webhooks/subscriptions/${created.id}`, { key, body: draft() });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.subscription.meta).toBeUndefined();
    expect((await create(draft({ meta: "owner=ops" }))).status).toBe(422);
  });

  it("authorization mode echoes the given secret and requires one", async () => {
    const withSecret = await create({
      ...draft({}, { auth_mode: "authorization" }),
      secret: "a-long-bearer-token-123",
    });
    expect(withSecret.body.subscription.secret).toBe("a-long-bearer-token-123");
    const inside = await create(draft({ secret: "another-bearer-token-456" }, { auth_mode: "authorization" }));
    expect(inside.body.subscription.secret).toBe("another-bearer-token-456");
    const without = await create(draft({}, { auth_mode: "authorization" }));
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: "secret_required", errors: [{ path: "subscription.secret" }] });
  });

  it("rejects bad input with a 4xx naming the field", async () => {
    const http = await create(draft({}, { url: "http://example.com/hook" }));
    expect(http.status).toBe(400);
    expect(http.body).toMatchObject({
      code: "invalid_webhook_url",
      errors: [{ path: "subscription.data.url", message: "must use https" }],
    });
    expect((await create(draft({}, { url: "https://u:p@example.com/" }))).body.detail).toContain(
      "must not contain credentials",
    );
    expect((await create(draft({}, { url: "https://127.0.0.1/" }))).body.detail).toContain("loopback");
    expect((await create(draft({}, { url: "https://169.254.169.254/" }))).body.detail).toContain("cloud metadata");
    const header = await create(draft({}, { headers: { "X-Service-Signature": "forged" } }));
    expect(header.status).toBe(422);
    expect(header.body.errors[0].path).toBe("subscription.data.headers.X-Service-Signature");
    const auth = await create(draft({}, { headers: { authorization: "x" } }));
    expect(auth.body.errors[0].message).toContain("cannot be overridden");
    const type = await create(draft({}, { event_types: ["nope.happened"] }));
    expect(type.status).toBe(422);
    expect(type.body.errors[0].path).toBe("subscription.data.event_types[0]");
    expect((await create({ subscription: { data: { url: "https://example.com" } } })).body.errors[0].path).toBe(
      "subscription.name",
    );
  });

  it("replaces, with an id mismatch refused; stop and start toggle the state", async () => {
    const s = (await create(draft())).body.subscription;
    const put = await t.call("PUT", `/api/webhooks/subscriptions/${s.id}`, {
      key,
      body: draft(
        { name: "Renamed" },
        { event_types: ["environments.revisions.committed", "applications.revisions.committed"] },
      ),
    });
    expect(put.status).toBe(200);
    expect(put.body.subscription).toMatchObject({
      name: "Renamed",
      data: { event_types: ["environments.revisions.committed", "applications.revisions.committed"] },
    });
    expect(put.body.subscription.secret).toBeUndefined();
    const mismatch = await t.call("PUT", `/api/webhooks/subscriptions/${s.id}`, { key, body: draft({ id: MISSING }) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe("id_mismatch");

    expect((await t.call("POST", `/api/webhooks/subscriptions/${s.id}/stop`, { key })).body.subscription.flags).toEqual(
      { is_active: false },
    );
    expect((await t.call("GET", `/api/webhooks/subscriptions/${s.id}`, { key })).body.subscription.flags).toEqual({
      is_active: false,
    });
    expect(
      (await t.call("POST", `/api/webhooks/subscriptions/${s.id}/start`, { key })).body.subscription.flags,
    ).toEqual({ is_active: true });
    expect((await t.call("POST", `/api/webhooks/subscriptions/${MISSING}/start`, { key })).status).toBe(404);
  });

  it("rotates the secret, showing the new one once", async () => {
    const s = (await create(draft())).body.subscription;
    const rotated = await t.call("POST", `/api/webhooks/subscriptions/${s.id}/rotate-secret`, { key, body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.subscription.secret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(rotated.body.subscription.secret).not.toBe(s.secret);
    const [row] = await t.database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, s.id));
    expect(t.context.secrets.open(row.sealedSecret)).toBe(rotated.body.subscription.secret);
    const given = await t.call("POST", `/api/webhooks/subscriptions/${s.id}/rotate-secret`, {
      key,
      body: { secret: "chosen-secret-0123456789" },
    });
    expect(given.body.subscription.secret).toBe("chosen-secret-0123456789");
  });

  it("deletes (204, then 404), and never shows another project's subscriptions", async () => {
    const s = (await create(draft())).body.subscription;
    expect((await t.call("GET", `/api/webhooks/subscriptions/${s.id}`, { key: otherKey })).status).toBe(404);
    expect((await t.call("DELETE", `/api/webhooks/subscriptions/${s.id}`, { key: otherKey })).status).toBe(404);
    expect((await t.call("DELETE", `/api/webhooks/subscriptions/${s.id}`, { key })).status).toBe(204);
    expect((await t.call("GET", `/api/webhooks/subscriptions/${s.id}`, { key })).status).toBe(404);
    expect((await t.call("DELETE", `/api/webhooks/subscriptions/${s.id}`, { key })).status).toBe(404);
    expect((await t.call("GET", `/api/webhooks/subscriptions/not-a-uuid`, { key })).status).toBe(400);
  });

  it("queries by partial name and tag containment, and pages", async () => {
    const p = await t.newProject("query");
    for (const [name, tags] of [
      ["Alpha hook", { team: "a" }],
      ["Beta hook", { team: "b", env: "prod" }],
      ["Gamma", { team: "b" }],
    ] as const) {
      await create(draft({ name, tags }), p.key);
    }
    const q = (body: unknown) => t.call("POST", "/api/webhooks/subscriptions/query", { key: p.key, body });
    expect((await q({})).body.count).toBe(3);
    expect(
      (await q({ subscription: { name: "HOOK" } })).body.subscriptions.map((s: { name: string }) => s.name).sort(),
    ).toEqual(["Alpha hook", "Beta hook"]);
    expect(
      (await q({ subscription: { tags: { team: "b" } } })).body.subscriptions
        .map((s: { name: string }) => s.name)
        .sort(),
    ).toEqual(["Beta hook", "Gamma"]);
    expect((await q({ subscription: { tags: { team: "c" } } })).body.count).toBe(0);
    const page1 = await q({ windowing: { limit: 1 } });
    expect(page1.body.subscriptions[0].name).toBe("Gamma");
    const page2 = await q({ windowing: { limit: 1, next: page1.body.windowing.next } });
    expect(page2.body.subscriptions[0].name).toBe("Beta hook");
    const page3 = await q({ windowing: { limit: 1, next: page2.body.windowing.next } });
    expect(page3.body.subscriptions[0].name).toBe("Alpha hook");
    expect(page3.body.windowing).toBeUndefined();
    expect(JSON.stringify((await q({})).body)).not.toMatch(/"secret"/);
  });
});
