import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { events } from "@/server/db/schema";
import { webhookPayloadSchema, webhookWorker } from "@/server/webhooks";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { ServiceWebhook, verifyServiceSignature, WebhookVerificationError } from "../helpers/webhook-verifier";
import { appFor, commitSomething, deliveriesOf, deliveryOf, drainUntil, subscribe, type Project } from "./helpers";

let receiver: WebhookReceiver;
let t: TestApp;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await appFor(receiver);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.succeeded.length = 0;
  receiver.reply = () => ({ status: 200, body: "ok" });
});

async function project(): Promise<Project> {
  return { t, ...(await t.newProject("hooks")) };
}

const settled = (p: Project) => async () =>
  (await deliveriesOf(p)).every((d) => d.status !== "pending") && (await deliveriesOf(p)).length > 0;

describe("signed deliveries to a real HTTPS receiver", () => {
  it("a commit reaches the receiver once, signed over the exact bytes, with the contract's headers", async () => {
    const p = await project();
    const sub = await subscribe(p, receiver.url(), { event_types: ["applications.revisions.committed"] });
    const created = await commitSomething(p);
    await drainUntil(t, () => receiver.succeeded.length === 1);

    const [request] = receiver.requests;
    const [delivery] = await deliveriesOf(p);
    const body = webhookPayloadSchema.parse(JSON.parse(request.rawBody));
    expect(body.event.event_type).toBe("applications.revisions.committed");
    expect(body.event.attributes).toMatchObject({ references: { application_revision: { id: created.revision!.id } } });
    expect(body.subscription.id).toBe(sub.id);
    expect(body.scope.project_id).toBe(p.projectId);
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhook/1.0",
      "x-service-event-type": "applications.revisions.committed",
      "x-service-delivery-id": delivery.id,
      "x-service-event-id": body.event.event_id,
      "idempotency-key": delivery.id,
    });
    expect(request.headers.authorization).toBeUndefined();
    verifyServiceSignature(sub.secret, request.rawBody, request.headers["x-service-signature"] as string);
    const hook = new ServiceWebhook(sub.secret);
    expect(hook.verify(Buffer.from(request.rawBody), request.headers)).toEqual(JSON.parse(request.rawBody));
    // A replay outside the tolerance, and a tampered body, are refused.
    expect(() => hook.verify(request.rawBody, request.headers, Date.now() + 301_000)).toThrow(WebhookVerificationError);
    expect(() => hook.verify(request.rawBody.replace("committed", "committes"), request.headers)).toThrow(
      "no matching signature",
    );
    expect(() =>
      verifyServiceSignature("wrong-secret", request.rawBody, request.headers["x-service-signature"] as string),
    ).toThrow("no matching signature");
    // A re-serialised body does not verify: receivers must use the raw bytes.
    expect(() =>
      verifyServiceSignature(
        sub.secret,
        JSON.stringify(JSON.parse(request.rawBody), null, 1),
        request.headers["x-service-signature"] as string,
      ),
    ).toThrow();

    const logged = await deliveryOf(p, delivery.id);
    expect(logged).toMatchObject({
      status: "succeeded",
      attempt_count: 1,
      last_status_code: 200,
      payload: request.rawBody,
    });
    expect(logged.attempts).toHaveLength(1);
    expect(logged.attempts[0]).toMatchObject({
      number: 1,
      trigger: "schedule",
      response: { status_code: 200, body: "ok" },
    });
    expect(logged.attempts[0].request.headers["X-Service-Signature"]).toBe("[redacted]");
  });

  it("matches event types: null is every type, a list only its types, [] none", async () => {
    const p = await project();
    await subscribe(p, receiver.url("/all"), { event_types: null });
    await subscribe(p, receiver.url("/env"), { event_types: ["environments.revisions.committed"] });
    await subscribe(p, receiver.url("/none"), { event_types: [] });
    await commitSomething(p);
    await drainUntil(t, () => receiver.succeeded.length === 1);
    await drainUntil(t, settled(p));
    expect(receiver.requests.map((r) => r.path)).toEqual(["/all"]);
  });

  it("authorization mode sends the bearer token and no signature; the log redacts it", async () => {
    const p = await project();
    await subscribe(p, receiver.url(), { auth_mode: "authorization" }, { secret: "bearer-token-0123456789" });
    await commitSomething(p);
    await drainUntil(t, () => receiver.succeeded.length === 1);
    expect(receiver.requests[0].headers.authorization).toBe("Bearer bearer-token-0123456789");
    expect(receiver.requests[0].headers["x-service-signature"]).toBeUndefined();
    const [d] = await deliveriesOf(p);
    expect((await deliveryOf(p, d.id)).attempts[0].request.headers.Authorization).toBe("[redacted]");
  });

  it("user headers are sent; payload_fields shapes the body", async () => {
    const p = await project();
    await subscribe(p, receiver.url(), {
      headers: { "X-Team": "blue" },
      payload_fields: {
        type: "$.event.event_type",
        project: "/scope/project_id",
        fixed: "literal",
        miss: "$.event.nope",
      },
    });
    await commitSomething(p);
    await drainUntil(t, () => receiver.succeeded.length === 1);
    expect(receiver.requests[0].headers["x-team"]).toBe("blue");
    expect(JSON.parse(receiver.requests[0].rawBody)).toEqual({
      type: "applications.revisions.committed",
      project: p.projectId,
      fixed: "literal",
      miss: null,
    });
  });
});

describe("retries, time-outs, redirects and 410", () => {
  it("retries a failing endpoint on the schedule until it answers 2xx", async () => {
    const p = await project();
    receiver.reply = (_, i) => (i < 2 ? { status: 500, body: "x".repeat(5000) } : { status: 204 });
    await subscribe(p, receiver.url());
    await commitSomething(p);
    await drainUntil(t, settled(p));
    const [d] = await deliveriesOf(p);
    const logged = await deliveryOf(p, d.id);
    expect(logged).toMatchObject({ status: "succeeded", attempt_count: 3, last_status_code: 204 });
    expect(logged.attempts.map((a: { response: { status_code: number } }) => a.response.status_code)).toEqual([
      500, 500, 204,
    ]);
    expect(logged.attempts[0].response.body).toHaveLength(2048);
    // Every attempt is the same delivery: one id, one idempotency key, the same bytes.
    expect(new Set(receiver.requests.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([d.id]));
    expect(new Set(receiver.requests.map((r) => r.rawBody)).size).toBe(1);
  });

  it("fails the delivery once the schedule is exhausted", async () => {
    const p = await project();
    receiver.reply = () => ({ status: 503 });
    await subscribe(p, receiver.url());
    await commitSomething(p);
    await drainUntil(t, settled(p));
    const [d] = await deliveriesOf(p);
    expect(d).toMatchObject({
      status: "failed",
      attempt_count: 3,
      last_status_code: 503,
      last_error: "endpoint answered 503",
    });
    expect(receiver.requests).toHaveLength(3);
  });

  it("a slow endpoint times out and is retried", async () => {
    // The retry must answer within the time-out on a loaded host too: a second, not 200 ms.
    const slow = await appFor(receiver, { webhookTimeoutMs: 1_000, webhookRetryScheduleMs: [0, 10] });
    try {
      const p = { t: slow, ...(await slow.newProject()) };
      receiver.reply = (_, i) => (i === 0 ? { status: 200, delayMs: 3_000 } : { status: 200 });
      await subscribe(p, receiver.url());
      await commitSomething(p);
      await drainUntil(slow, settled(p));
      const [d] = await deliveriesOf(p);
      const logged = await deliveryOf(p, d.id);
      expect(logged.status).toBe("succeeded");
      expect(logged.attempts[0]).toMatchObject({ error: "timed out after 1000 ms" });
      expect(logged.attempts[0].response).toBeUndefined();
      // The first request's answer came after the time-out: only the retry counts as received.
      await receiver.when(() => receiver.requests.length === 2);
      expect(receiver.succeeded).toEqual([d.id]);
    } finally {
      await slow.close();
    }
  });

  it("does not follow redirects", async () => {
    const p = await project();
    receiver.reply = (r) =>
      r.path === "/hook" ? { status: 302, location: receiver.url("/elsewhere") } : { status: 200 };
    await subscribe(p, receiver.url());
    await commitSomething(p);
    await drainUntil(t, settled(p));
    expect(receiver.requests.every((r) => r.path === "/hook")).toBe(true);
    const [d] = await deliveriesOf(p);
    expect(d).toMatchObject({ status: "failed", last_status_code: 302 });
  });

  it("410 Gone stops the subscription and says why", async () => {
    const p = await project();
    receiver.reply = () => ({ status: 410 });
    const sub = await subscribe(p, receiver.url());
    await commitSomething(p);
    await drainUntil(t, settled(p));
    expect(receiver.requests).toHaveLength(1);
    const s = (await t.call("GET", `/api/webhooks/subscriptions/${sub.id}`, { key: p.key })).body.subscription;
    expect(s.flags).toEqual({ is_active: false });
    expect(s.stopped_reason).toMatch(/410 Gone/);
    // Stopped: later events are not delivered. Nothing takes them now, so they are written
    // already fanned out (server/events/emit.ts): no fan-out pass claims them.
    const eventsOf = async () =>
      (
        await t.context.db
          .select({
            all: sql<number>`count(*)`.mapWith(Number),
            waiting: sql<number>`count(*) filter (where ${events.fannedOutAt} is null)`.mapWith(Number),
          })
          .from(events)
          .where(eq(events.projectId, p.projectId))
      )[0];
    const before = await eventsOf();
    await commitSomething(p);
    const after = await eventsOf();
    expect(after.all).toBeGreaterThan(before.all);
    expect(after.waiting).toBe(before.waiting);
    await webhookWorker.drain(t.context, 100);
    expect((await deliveriesOf(p)).length).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  });

  it("a subscription whose deliveries all fail for WEBHOOK_DISABLE_AFTER is stopped", async () => {
    const strict = await appFor(receiver, { webhookDisableAfterMs: 1, webhookRetryScheduleMs: [0, 20, 20] });
    try {
      const p = { t: strict, ...(await strict.newProject()) };
      receiver.reply = () => ({ status: 500 });
      const sub = await subscribe(p, receiver.url());
      await commitSomething(p);
      await drainUntil(
        strict,
        async () =>
          (await strict.call("GET", `/api/webhooks/subscriptions/${sub.id}`, { key: p.key })).body.subscription.flags
            .is_active === false,
      );
      const s = (await strict.call("GET", `/api/webhooks/subscriptions/${sub.id}`, { key: p.key })).body.subscription;
      expect(s.stopped_reason).toMatch(/^every delivery has failed since /);
      expect(receiver.requests.length).toBe(2);
      // Starting it again clears the record, and the pending retry goes out.
      receiver.reply = () => ({ status: 200 });
      await strict.call("POST", `/api/webhooks/subscriptions/${sub.id}/start`, { key: p.key });
      await drainUntil(strict, settled(p));
      expect((await deliveriesOf(p))[0].status).toBe("succeeded");
    } finally {
      await strict.close();
    }
  });
});

describe("delivery log, redelivery and test sends", () => {
  it("redelivers with the same delivery id and a new signature", async () => {
    const p = await project();
    receiver.reply = () => ({ status: 500 });
    const sub = await subscribe(p, receiver.url());
    await commitSomething(p);
    await drainUntil(t, settled(p));
    const [failed] = await deliveriesOf(p, { status: "failed" });
    receiver.reply = () => ({ status: 200, body: "fine now" });
    const res = await t.call("POST", `/api/webhooks/deliveries/${failed.id}/redeliver`, { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ id: failed.id, status: "succeeded", attempt_count: 4 });
    expect(res.body.delivery.attempts.at(-1)).toMatchObject({
      number: 4,
      trigger: "redeliver",
      response: { status_code: 200, body: "fine now" },
    });
    const last = receiver.requests.at(-1)!;
    expect(last.headers["idempotency-key"]).toBe(failed.id);
    verifyServiceSignature(sub.secret, last.rawBody, last.headers["x-service-signature"] as string);
    expect(last.rawBody).toBe(receiver.requests[0].rawBody);

    expect((await deliveriesOf(p, { status: "succeeded" })).map((d) => d.id)).toEqual([failed.id]);
    expect(await deliveriesOf(p, { subscription_id: sub.id })).toHaveLength(1);
    const other = await t.newProject();
    expect((await t.call("GET", `/api/webhooks/deliveries/${failed.id}`, { key: other.key })).status).toBe(404);
    expect((await t.call("POST", `/api/webhooks/deliveries/${failed.id}/redeliver`, { key: other.key })).status).toBe(
      404,
    );
  });

  it("test-sends to a saved subscription (kept in the log) and to a draft (not kept)", async () => {
    const p = await project();
    const sub = await subscribe(p, receiver.url());
    const saved = await t.call("POST", "/api/webhooks/subscriptions/test", {
      key: p.key,
      body: { subscription_id: sub.id },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.delivery).toMatchObject({
      subscription_id: sub.id,
      event_type: "webhooks.subscriptions.tested",
      status: "succeeded",
    });
    const sent = JSON.parse(receiver.requests[0].rawBody);
    expect(sent.event.attributes).toEqual({ subscription_id: sub.id, user_id: p.userId });
    expect(sent.event.timestamp).toBe(sent.event.created_at);
    verifyServiceSignature(
      sub.secret,
      receiver.requests[0].rawBody,
      receiver.requests[0].headers["x-service-signature"] as string,
    );
    expect((await deliveryOf(p, saved.body.delivery.id)).attempts[0].trigger).toBe("test");

    receiver.reply = () => ({ status: 500 });
    const draft = await t.call("POST", "/api/webhooks/subscriptions/test", {
      key: p.key,
      body: {
        subscription: { name: "Draft", meta: { owner: "ops" }, data: { url: receiver.url("/draft") } },
        secret: "draft-secret-0123456789",
      },
    });
    expect(draft.status).toBe(200);
    expect(draft.body.delivery).toMatchObject({
      subscription_id: "00000000-0000-0000-0000-000000000000",
      status: "failed",
      last_status_code: 500,
    });
    expect(JSON.parse(receiver.requests[1].rawBody).subscription).toMatchObject({
      name: "Draft",
      meta: { owner: "ops" },
    });
    verifyServiceSignature(
      "draft-secret-0123456789",
      receiver.requests[1].rawBody,
      receiver.requests[1].headers["x-service-signature"] as string,
    );
    expect((await t.call("GET", `/api/webhooks/deliveries/${draft.body.delivery.id}`, { key: p.key })).status).toBe(
      404,
    );

    const both = await t.call("POST", "/api/webhooks/subscriptions/test", { key: p.key, body: {} });
    expect(both.status).toBe(400);
    const missing = await t.call("POST", "/api/webhooks/subscriptions/test", {
      key: p.key,
      body: { subscription_id: "01900000-0000-7000-8000-000000000000" },
    });
    expect(missing.status).toBe(404);
    const noBearer = await t.call("POST", "/api/webhooks/subscriptions/test", {
      key: p.key,
      body: { subscription: { name: "Draft", data: { url: receiver.url(), auth_mode: "authorization" } } },
    });
    expect(noBearer.status).toBe(400);
  });
});
