import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../helpers/http-client";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import type { TestApp } from "../helpers/test-app";
import { appFor } from "../webhooks/helpers";

let t: TestApp;
let server: RunningServer;
let receiver: WebhookReceiver;
let owner: HttpClient;
let viewer: HttpClient;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await appFor(receiver);
  server = await serveOverHttp(t);
  owner = new HttpClient(server.origin);
  expect(
    (
      await owner.send("POST", "/api/accounts/owner", {
        body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      })
    ).status,
  ).toBe(201);
  const invite = await owner.mutate("members.invite", { role: "viewer" });
  viewer = new HttpClient(server.origin);
  expect(
    (
      await viewer.send("POST", "/api/accounts/sign-up", {
        body: {
          name: "Vi",
          email: "vi@example.com",
          password: "another long password",
          invite_token: invite.data.token,
        },
      })
    ).status,
  ).toBe(201);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await receiver.close();
});

const draft = (url: string) => ({
  name: "Deploys",
  data: { url, event_types: ["environments.revisions.committed"], auth_mode: "signature" as const },
});

describe("webhooks in the playground (tRPC over server/webhooks)", () => {
  let id: string;
  let secret: string;

  it("create answers with the secret once; reads never carry it", async () => {
    const created = await owner.mutate("webhooks.create", { subscription: draft(receiver.url("/saved")) });
    expect(created.status).toBe(200);
    ({ id, secret } = created.data);
    expect(secret.length).toBeGreaterThanOrEqual(16);
    expect(created.data).toMatchObject({ name: "Deploys", flags: { is_active: true } });
    const list = await viewer.query("webhooks.list");
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(JSON.stringify(list.data)).not.toContain(secret);
    expect(JSON.stringify((await owner.query("webhooks.get", { id })).data)).not.toContain(secret);
  });

  it("a test to the saved subscription is delivered, signed with that secret, and logged with its attempt", async () => {
    receiver.reply = () => ({ status: 200, body: "thanks from the receiver" });
    const before = receiver.requests.length;
    const sent = await owner.mutate("webhooks.test", { id });
    expect(sent.status).toBe(200);
    expect(sent.data).toMatchObject({
      status: "succeeded",
      event_type: "webhooks.subscriptions.tested",
      attempt_count: 1,
    });
    expect(sent.data.attempts).toHaveLength(1);
    expect(sent.data.attempts[0]).toMatchObject({
      number: 1,
      trigger: "test",
      response: { status_code: 200, body: "thanks from the receiver" },
    });
    expect(typeof sent.data.attempts[0].duration_ms).toBe("number");

    const request = receiver.requests[before];
    expect(request.path).toBe("/saved");
    const signature = String(request.headers["x-service-signature"]);
    const timestamp = /t=(\d+)/.exec(signature)?.[1];
    const expected = createHmac("sha256", secret).update(`${timestamp}.${request.rawBody}`).digest("hex");
    expect(signature).toContain(expected);

    const deliveries = await viewer.query("webhooks.deliveries", { subscriptionId: id });
    expect(deliveries.data.map((d: { id: string }) => d.id)).toEqual([sent.data.id]);
  });

  it("redeliver sends the same delivery again: a second attempt, the new outcome", async () => {
    const [delivery] = (await owner.query("webhooks.deliveries", { subscriptionId: id })).data;
    receiver.reply = () => ({ status: 503, body: "down for maintenance" });
    const again = await owner.mutate("webhooks.redeliver", { id: delivery.id });
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ id: delivery.id, status: "failed", attempt_count: 2, last_status_code: 503 });
    expect(again.data.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(["test", "redeliver"]);
    expect(again.data.attempts[1].response).toEqual({ status_code: 503, body: "down for maintenance" });
    const read = await viewer.query("webhooks.delivery", { id: delivery.id });
    expect(read.data.attempts).toHaveLength(2);
    expect((await owner.query("webhooks.deliveries", { subscriptionId: id, status: "failed" })).data).toHaveLength(1);
    expect((await owner.query("webhooks.deliveries", { subscriptionId: id, status: "succeeded" })).data).toHaveLength(
      0,
    );
  });

  it("a draft test sends the form as it is and stores nothing", async () => {
    receiver.reply = () => ({ status: 200, body: "draft ok" });
    const sent = await owner.mutate("webhooks.test", { subscription: draft(receiver.url("/draft")) });
    expect(sent.data).toMatchObject({
      status: "succeeded",
      attempts: [{ response: { status_code: 200, body: "draft ok" } }],
    });
    expect(receiver.requests.at(-1)?.path).toBe("/draft");
    expect((await owner.query("webhooks.deliveries", { subscriptionId: id })).data).toHaveLength(1);
  });

  it("edit keeps the secret unless a new one is given; stop and start", async () => {
    const edited = await owner.mutate("webhooks.update", {
      id,
      subscription: { ...draft(receiver.url("/edited")), name: "Deploys (prod)" },
    });
    expect(edited.data).toMatchObject({ name: "Deploys (prod)", data: { url: receiver.url("/edited") } });
    expect(edited.data).not.toHaveProperty("secret");
    expect((await owner.mutate("webhooks.setActive", { id, active: false })).data.flags.is_active).toBe(false);
    expect((await owner.mutate("webhooks.setActive", { id, active: true })).data.flags.is_active).toBe(true);
  });

  it("bad input is a clear 4xx; viewers read but change nothing", async () => {
    const plain = await owner.mutate("webhooks.create", { subscription: draft("http://example.com/hook") });
    expect(plain.status).toBe(400);
    expect(plain.error?.message).toContain("subscription.data.url");
    const both = await owner.mutate("webhooks.test", { id, subscription: draft(receiver.url()) });
    expect(both.status).toBe(400);
    expect((await owner.query("webhooks.get", { id: "0190f0f0-0000-7000-8000-000000000000" })).status).toBe(404);
    expect((await viewer.mutate("webhooks.create", { subscription: draft(receiver.url()) })).status).toBe(403);
    expect((await viewer.mutate("webhooks.test", { id })).status).toBe(403);
    expect((await viewer.mutate("webhooks.setActive", { id, active: false })).status).toBe(403);
    expect((await viewer.mutate("webhooks.delete", { id })).status).toBe(403);
    expect((await owner.mutate("webhooks.delete", { id })).status).toBe(200);
    expect((await owner.query("webhooks.list")).data).toEqual([]);
  });
});
