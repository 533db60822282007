import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "@/server/core/app-context";
import { webhookWorker } from "@/server/webhooks";
import { closedPort } from "../helpers/closed-port";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { appFor, commitSomething, deliveriesOf, subscribe, type Project } from "./helpers";

// The reference implementation's clients query deliveries by `status: {code}`: the text code of
// a final record ("200", "404", "0" for a time-out or network error, "400" for a refused URL).

let receiver: WebhookReceiver;
let t: TestApp;
let strict: AppContext;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.reply = (request) =>
    request.path === "/missing" ? { status: 404 } : request.path === "/down" ? { status: 503 } : { status: 200 };
  // One attempt now, the next in an hour: a failure stays pending until redelivered.
  t = await appFor(receiver, { webhookRetryScheduleMs: [0, 3_600_000] });
  strict = { ...t.context, config: { ...t.context.config, egressAllowlist: [] } };
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe("clients of the reference implementation", () => {
  it("query deliveries by status code: final deliveries by their HTTP status, 0 for no answer, 400 for a refused URL", async () => {
    const p: Project = { t, ...(await t.newProject("compat")) };
    const refused = await subscribe(p, receiver.url("/refused"));
    await commitSomething(p);
    while ((await webhookWorker.drain(strict, 100)) > 0);
    await t.call("POST", `/api/webhooks/subscriptions/${refused.id}/stop`, { key: p.key });

    const ok = await subscribe(p, receiver.url("/ok"));
    const missing = await subscribe(p, receiver.url("/missing"));
    const down = await subscribe(p, receiver.url("/down"));
    const closed = await subscribe(p, `https://localhost:${await closedPort()}/hook`);
    await commitSomething(p);
    while ((await webhookWorker.drain(t.context, 100)) > 0);
    const bySubscription = new Map((await deliveriesOf(p)).map((d) => [d.subscription_id, d]));
    // 404 and the network error made final (one attempt whose outcome is the status); 503 stays pending.
    for (const s of [missing, closed]) {
      const res = await t.call("POST", `/api/webhooks/deliveries/${bySubscription.get(s.id)!.id}/redeliver`, {
        key: p.key,
      });
      expect(res.body.delivery.status).toBe("failed");
    }
    expect(bySubscription.get(down.id)).toMatchObject({ status: "pending", last_status_code: 503 });

    const query = (delivery: unknown) =>
      t.call("POST", "/api/webhooks/deliveries/query", { key: p.key, body: { delivery } });
    const subscriptionsOf = async (delivery: unknown) => {
      const res = await query(delivery);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.deliveries as { subscription_id: string }[]).map((d) => d.subscription_id).sort();
    };
    expect(await subscriptionsOf({ status: { code: "200" } })).toEqual([ok.id]);
    expect(await subscriptionsOf({ status: { code: 200, message: "success" } })).toEqual([ok.id]);
    expect(await subscriptionsOf({ status: { code: "404" } })).toEqual([missing.id]);
    expect(await subscriptionsOf({ status: { code: "0" } })).toEqual([closed.id]);
    expect(await subscriptionsOf({ status: { code: "400" } })).toEqual([refused.id]);
    // Still being retried: the reference implementation has no record for it yet.
    expect(await subscriptionsOf({ status: { code: "503" } })).toEqual([]);
    expect(await subscriptionsOf({ status: { code: "200" }, subscription_id: missing.id })).toEqual([]);
    expect(await subscriptionsOf({ status: { code: null } })).toHaveLength(5);
    // Our own form is unchanged.
    expect(await subscriptionsOf({ status: "pending" })).toEqual([down.id]);

    const bad = await query({ status: { code: "success" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "unknown_status_code" });
    expect(bad.body.detail).toContain("delivery.status.code");
  });

  it("takes the reference implementation's include_archived and nulls in query bodies", async () => {
    const p: Project = { t, ...(await t.newProject("compat-nulls")) };
    await subscribe(p, receiver.url("/ok"));
    for (const [path, body] of [
      ["/api/webhooks/subscriptions/query", { subscription: null, include_archived: false, windowing: null }],
      ["/api/webhooks/subscriptions/query", { subscription: { name: "hook", tags: null }, include_archived: true }],
      ["/api/webhooks/deliveries/query", { delivery: null, include_archived: false, windowing: null }],
      ["/api/webhooks/deliveries/query", { delivery: { status: null, subscription_id: null, event_id: null } }],
    ] as const) {
      const res = await t.call("POST", path, { key: p.key, body });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect(
      (
        await t.call("POST", "/api/webhooks/subscriptions/query", {
          key: p.key,
          body: { subscription: { tags: null } },
        })
      ).body.count,
    ).toBe(1);
  });

  it("refuses an authorization-mode secret written with its scheme, which would be sent as Bearer Bearer", async () => {
    const p: Project = { t, ...(await t.newProject("compat-bearer")) };
    const data = { url: receiver.url("/ok"), auth_mode: "authorization" };
    const reference = { subscription: { name: "hook", data, secret: "Bearer 0123456789abcdef" } };
    for (const path of ["/api/webhooks/subscriptions/", "/api/webhooks/subscriptions/test"]) {
      const res = await t.call("POST", path, { key: p.key, body: reference });
      expect(res.status, path).toBe(400);
      expect(res.body.detail).toContain('"Authorization: Bearer <secret>"');
      expect(res.body.errors[0].path).toBe("subscription.secret");
    }
    const sub = await subscribe(p, receiver.url("/ok"), { auth_mode: "authorization" }, { secret: "0123456789abcdef" });
    const rotate = await t.call("POST", `/api/webhooks/subscriptions/${sub.id}/rotate-secret`, {
      key: p.key,
      body: { secret: "Bearer 0123456789abcdef" },
    });
    expect(rotate.status).toBe(400);
    expect(rotate.body.errors[0].path).toBe("secret");
    const before = receiver.requests.length;
    await t.call("POST", "/api/webhooks/subscriptions/test", { key: p.key, body: { subscription_id: sub.id } });
    expect(receiver.requests[before].headers.authorization).toBe("Bearer 0123456789abcdef");
  });
});
