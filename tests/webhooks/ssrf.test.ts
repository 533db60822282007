import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "@/server/core/app-context";
import { webhookWorker } from "@/server/webhooks";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { allow, appFor, commitSomething, deliveriesOf, deliveryOf, subscribe, type Project } from "./helpers";

let receiver: WebhookReceiver;
let t: TestApp;
/** The same database and secrets, with nothing allow-listed: what a deployment without EGRESS_ALLOWLIST does. */
let strict: AppContext;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // Subscriptions are saved while these addresses are allowed (or through a name that later
  // resolves elsewhere); delivery must check again.
  t = await appFor(receiver, { egressAllowlist: allow("localhost,127.0.0.1,::1,::ffff:127.0.0.1") });
  strict = { ...t.context, config: { ...t.context.config, egressAllowlist: [] } };
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe("SSRF at delivery time", () => {
  it("refuses private targets when connecting, records the reason, and does not retry", async () => {
    const p: Project = { t, ...(await t.newProject()) };
    const port = receiver.port;
    const targets = {
      [`https://localhost:${port}/hook`]: "localhost resolves to",
      [`https://127.0.0.1:${port}/hook`]: "127.0.0.1 is a loopback address",
      [`https://[::1]:${port}/hook`]: "::1 is a loopback address",
      [`https://[::ffff:7f00:1]:${port}/hook`]: "is an IPv4-mapped IPv6 address",
    };
    for (const url of Object.keys(targets)) await subscribe(p, url);
    // Written as the dotted form, stored as the URL parser normalises it.
    await subscribe(p, `https://[::ffff:127.0.0.1]:${port}/hook`);
    await commitSomething(p);
    while ((await webhookWorker.drain(strict, 100)) > 0);

    expect(receiver.requests).toHaveLength(0);
    const deliveries = await deliveriesOf(p);
    expect(deliveries).toHaveLength(5);
    for (const d of deliveries) {
      const logged = await deliveryOf(p, d.id);
      expect(logged.status).toBe("failed");
      expect(logged.attempt_count).toBe(1);
      expect(logged.attempts[0].error).toContain("egress refused: ");
      expect(logged.attempts[0].error).toContain(targets[logged.url as keyof typeof targets]);
      expect(logged.attempts[0].response).toBeUndefined();
    }
  });

  it("a redirect toward the metadata address is answered but never followed", async () => {
    const p: Project = { t, ...(await t.newProject()) };
    receiver.reply = () => ({ status: 307, location: "http://169.254.169.254/latest/meta-data/" });
    await subscribe(p, receiver.url());
    await commitSomething(p);
    while ((await webhookWorker.drain(t.context, 100)) > 0);
    const [d] = await deliveriesOf(p);
    expect((await deliveryOf(p, d.id)).attempts[0].response.status_code).toBe(307);
    expect(receiver.requests.every((r) => r.path === "/hook")).toBe(true);
  });

  it("test sends go through the same guard", async () => {
    const p: Project = { t, ...(await t.newProject()) };
    const before = receiver.requests.length;
    const refused = await t.call("POST", "/api/webhooks/subscriptions/test", {
      key: p.key,
      body: { subscription: { name: "x", data: { url: "https://10.255.255.1/hook" } } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ path: "subscription.data.url" });
    expect(receiver.requests.length).toBe(before);
  });
});
