import { sign as githubSign } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dispatchFirings } from "@/server/automations";
import { automationFixture, runsEnded, type AutomationFixture } from "./helpers";

let f: AutomationFixture;
beforeAll(async () => {
  f = await automationFixture();
  f.setClock(new Date());
});
afterAll(async () => {
  await f.close();
});

async function createInbound(scheme: string, extra: Record<string, unknown> = {}) {
  const res = await f.t.call("POST", "/api/automations/", {
    key: f.key,
    body: {
      automation: {
        kind: "inbound",
        name: `${scheme} trigger`,
        signature_scheme: scheme,
        references: { workflow_revision: { id: f.revisionId } },
        input: { messages: [{ role: "user", content: "Triage issue {{ issue.number }}: {{ issue.title }}" }] },
        ...extra,
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.automation.secret).toEqual(expect.any(String));
  const again = await f.t.call("GET", `/api/automations/${res.body.automation.id}`, { key: f.key });
  expect(again.body.automation).not.toHaveProperty("secret");
  return res.body.automation as { id: string; secret: string; inbound_path: string };
}

const post = (path: string, rawBody: string, headers: Record<string, string>) =>
  f.t.call("POST", path, { rawBody, headers: { "content-type": "application/json", ...headers } });

const payload = (n: number) => JSON.stringify({ action: "opened", issue: { number: n, title: `Bug ${n}` } });

async function startedMessage(deliveryId: string) {
  await dispatchFirings(f.t.context, 10);
  const res = await f.t.call("GET", `/api/automations/deliveries/${deliveryId}`, { key: f.key });
  expect(res.body.delivery.status, JSON.stringify(res.body)).toBe("started");
  await runsEnded(f.t.context);
  const run = await f.t.call("GET", `/services/agent/v0/runs/${res.body.delivery.run_id}`, { key: f.key });
  expect(run.body.run.status).toBe("finished");
  // Every request the model saw: a firing left pending by the test before may be dispatched too.
  return JSON.stringify(f.model.requests.map((request) => request.body));
}

it("Standard Webhooks: signed by the standardwebhooks library it starts a run; a replay, a forgery and a stale timestamp are 401", async () => {
  const trigger = await createInbound("standard_webhooks");
  const wh = new Webhook(trigger.secret);
  const body = payload(1);
  const now = f.clock();
  const headers = {
    "webhook-id": "msg_1",
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": wh.sign("msg_1", now, body),
  };
  const accepted = await post(trigger.inbound_path, body, headers);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  expect(accepted.body).toEqual({ status: "accepted", delivery_id: expect.any(String) });
  expect(await startedMessage(accepted.body.delivery_id)).toContain("Triage issue 1: Bug 1");

  const replay = await post(trigger.inbound_path, body, headers);
  expect(replay.status).toBe(401);
  expect(replay.body.code).toBe("replayed");
  const forged = await post(trigger.inbound_path, payload(2), { ...headers, "webhook-id": "msg_2" });
  expect(forged.status).toBe(401);
  expect(forged.body.code).toBe("signature_invalid");
  const old = new Date(now.getTime() - 10 * 60_000);
  const stale = await post(trigger.inbound_path, body, {
    "webhook-id": "msg_3",
    "webhook-timestamp": String(Math.floor(old.getTime() / 1000)),
    "webhook-signature": wh.sign("msg_3", old, body),
  });
  expect(stale.status).toBe(401);
  expect(stale.body.detail).toContain("replay window");
  // Svix's header names are the same scheme.
  const svix = await post(trigger.inbound_path, payload(4), {
    "svix-id": "msg_4",
    "svix-timestamp": String(Math.floor(now.getTime() / 1000)),
    "svix-signature": wh.sign("msg_4", now, payload(4)),
  });
  expect(svix.status).toBe(202);
  const deliveries = await f.t.call("GET", `/api/automations/${trigger.id}/deliveries`, { key: f.key });
  expect(deliveries.body.count).toBe(2);
});

it("GitHub: X-Hub-Signature-256 made by @octokit/webhooks-methods; a redelivered id is refused", async () => {
  const trigger = await createInbound("github", { filter: [{ path: "action", equals: "opened" }] });
  const body = payload(5);
  const headers = { "x-hub-signature-256": await githubSign(trigger.secret, body), "x-github-delivery": "d-5" };
  const accepted = await post(trigger.inbound_path, body, headers);
  expect(accepted.status).toBe(202);
  expect(await startedMessage(accepted.body.delivery_id)).toContain("Triage issue 5: Bug 5");
  expect((await post(trigger.inbound_path, body, headers)).status).toBe(401);
  const wrong = await post(trigger.inbound_path, body, {
    ...headers,
    "x-github-delivery": "d-6",
    "x-hub-signature-256": await githubSign("another-secret-1234", body),
  });
  expect(wrong.status).toBe(401);
  // The filter: a closed issue is recorded as skipped and starts nothing.
  const closed = JSON.stringify({ action: "closed", issue: { number: 7 } });
  const filtered = await post(trigger.inbound_path, closed, {
    "x-hub-signature-256": await githubSign(trigger.secret, closed),
    "x-github-delivery": "d-7",
  });
  expect(filtered.status).toBe(202);
  expect(filtered.body.status).toBe("filtered");
  const row = await f.t.call("GET", `/api/automations/deliveries/${filtered.body.delivery_id}`, { key: f.key });
  expect(row.body.delivery).toMatchObject({ status: "skipped", error: expect.stringContaining("filter") });
});

it("Stripe: Stripe-Signature from stripe.webhooks.generateTestHeaderString; replayed and stale are 401", async () => {
  const trigger = await createInbound("stripe");
  const stripe = new Stripe("sk_test_unused");
  const body = JSON.stringify({ id: "evt_1", type: "charge.dispute.created", issue: { number: 8, title: "Dispute" } });
  const header = stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: trigger.secret,
    timestamp: Math.floor(f.clock().getTime() / 1000),
  });
  const accepted = await post(trigger.inbound_path, body, { "stripe-signature": header });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  expect(await startedMessage(accepted.body.delivery_id)).toContain("Triage issue 8: Dispute");
  expect((await post(trigger.inbound_path, body, { "stripe-signature": header })).status).toBe(401);
  const staleHeader = stripe.webhooks.generateTestHeaderString({
    payload: body.replace("evt_1", "evt_2"),
    secret: trigger.secret,
    timestamp: Math.floor(f.clock().getTime() / 1000) - 600,
  });
  expect(
    (await post(trigger.inbound_path, body.replace("evt_1", "evt_2"), { "stripe-signature": staleHeader })).status,
  ).toBe(401);
  const unsigned = await post(trigger.inbound_path, body, {});
  expect(unsigned.status).toBe(401);
  const deliveries = await f.t.call("GET", `/api/automations/${trigger.id}/deliveries`, { key: f.key });
  expect(deliveries.body.count).toBe(1);
});

it("an unknown trigger URL is 404", async () => {
  const res = await post("/api/automations/0190a0a0-0000-7000-8000-000000000000/inbound", "{}", {});
  expect(res.status).toBe(404);
});
