import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorPass } from "@/server/monitors";
import { webhookWorker } from "@/server/webhooks";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { verifyServiceSignature } from "../helpers/webhook-verifier";
import { errorRateMonitor, monitorFixture, type MonitorFixture } from "./helpers";

const BASE = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
const at = (mmss: string) => {
  const [mm, ss] = mmss.split(":").map(Number);
  return new Date(BASE + 3 * 3_600_000 + mm * 60_000 + ss * 1000).toISOString();
};

let receiver: WebhookReceiver;
let f: MonitorFixture;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  f = await monitorFixture(receiver);
});
afterAll(async () => {
  await f.t.close();
  await receiver.close();
});

/** A port that was free a moment ago: connecting to it is refused. */
async function portNobodyListensOn(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const bodiesAt = (path: string) =>
  receiver.requests.filter((r) => r.path === path).map((r) => ({ headers: r.headers, body: JSON.parse(r.rawBody) }));

describe("monitor notifications at a real HTTPS receiver", () => {
  it("sends the signed webhook event, Slack and Teams messages and a GitHub repository_dispatch", async () => {
    const sub = await f.t.call("POST", "/api/webhooks/subscriptions/", {
      key: f.key,
      body: {
        subscription: {
          name: "alerts",
          data: { url: receiver.url("/hook"), event_types: ["monitors.alert.fired", "monitors.alert.resolved"] },
        },
      },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const secret = sub.body.subscription.secret as string;

    f.setClock(at("00:30"));
    const m = await f.createMonitor(
      errorRateMonitor("shop", {
        name: "Shop errors",
        channels: [
          { kind: "slack", url: receiver.url("/slack/T000/B000/XXXX") },
          { kind: "teams", url: receiver.url("/teams/workflow") },
          {
            kind: "github",
            repository: "acme/agents",
            token: "ghp_monitor_token_0123456789",
            event_type: "agent-alert",
            api_url: receiver.url("/gh-api"),
          },
        ],
      }),
    );
    // The secrets are never returned: the hosts are.
    expect(JSON.stringify(m)).not.toContain("XXXX");
    expect(JSON.stringify(m)).not.toContain("ghp_monitor_token");
    expect(m.channels).toEqual([
      { kind: "slack", host: `localhost:${receiver.port}` },
      { kind: "teams", host: `localhost:${receiver.port}` },
      {
        kind: "github",
        host: `localhost:${receiver.port}`,
        repository: "acme/agents",
        event_type: "agent-alert",
        api_url: receiver.url("/gh-api"),
      },
    ]);

    await f.runs("shop", 4, 2, at("00:10")); // 50% errors
    f.setClock(at("01:05"));
    await monitorPass(f.t.context);
    await webhookWorker.drain(f.t.context, 100);
    // The passes await each send: every request has reached the receiver when they return.
    expect(receiver.requests.length).toBe(4);

    const [hook] = receiver.requests.filter((r) => r.path === "/hook");
    verifyServiceSignature(secret, hook.rawBody, hook.headers["x-service-signature"] as string);
    const event = JSON.parse(hook.rawBody);
    expect(hook.headers["x-service-event-type"]).toBe("monitors.alert.fired");
    expect(JSON.stringify(event)).toContain('"value":0.5');
    expect(JSON.stringify(event)).toContain("Alert: Shop errors: error rate 50% is above 20% for agent shop");

    const [slack] = bodiesAt("/slack/T000/B000/XXXX");
    expect(slack.headers["content-type"]).toBe("application/json");
    expect(slack.body.text).toBe(
      "Alert: Shop errors: error rate 50% is above 20% for agent shop (5 min window, 4 runs)",
    );
    expect(slack.body.blocks[0]).toMatchObject({ type: "section", text: { type: "mrkdwn" } });
    expect(slack.body.blocks[1].fields).toContainEqual({ type: "mrkdwn", text: "*Value*\n50%" });

    const [teams] = bodiesAt("/teams/workflow");
    expect(teams.body).toMatchObject({
      type: "message",
      attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: { type: "AdaptiveCard" } }],
    });
    const card = teams.body.attachments[0].content;
    expect(card.body[0]).toMatchObject({ type: "TextBlock", color: "Attention" });
    expect(card.body[1].facts).toContainEqual({ title: "Threshold", value: "above 20%" });

    const [dispatch] = bodiesAt("/gh-api/repos/acme/agents/dispatches");
    expect(dispatch.headers.authorization).toBe("Bearer ghp_monitor_token_0123456789");
    expect(dispatch.headers.accept).toBe("application/vnd.github+json");
    expect(dispatch.body.event_type).toBe("agent-alert");
    expect(Object.keys(dispatch.body.client_payload).length).toBeLessThanOrEqual(10);
    expect(dispatch.body.client_payload).toMatchObject({
      event: "monitors.alert.fired",
      monitor: { id: m.id, name: "Shop errors" },
      value: 0.5,
      samples: 4,
    });

    // Recovery: every channel hears the resolution.
    await f.runs("shop", 16, 0, at("00:20")); // 2 of 20
    f.setClock(at("02:05"));
    await monitorPass(f.t.context);
    await webhookWorker.drain(f.t.context, 100);
    expect(receiver.requests.length).toBe(8);
    expect(bodiesAt("/slack/T000/B000/XXXX")[1].body.text).toMatch(
      /^Resolved: Shop errors: error rate for agent shop is back at 10%/,
    );
    expect(bodiesAt("/teams/workflow")[1].body.attachments[0].content.body[0].color).toBe("Good");
    expect(bodiesAt("/gh-api/repos/acme/agents/dispatches")[1].body.client_payload.event).toBe(
      "monitors.alert.resolved",
    );
    const resolvedHook = receiver.requests.filter((r) => r.path === "/hook")[1];
    expect(resolvedHook.headers["x-service-event-type"]).toBe("monitors.alert.resolved");
  });

  it("records each channel's delivery: a Slack post that fails reads as retrying, then sent once it answers", async () => {
    await f.clear();
    const before = receiver.requests.length;
    let failures = 1;
    receiver.reply = (r) =>
      r.path === "/slack/flaky" && failures-- > 0
        ? // The channel echoes what it was sent: the stored error never carries the secret URL.
          { status: 500, body: `no such hook ${receiver.url("/slack/flaky")}` }
        : { status: 200 };
    const closedPort = await portNobodyListensOn();
    f.setClock(at("30:30"));
    const m = await f.createMonitor(
      errorRateMonitor("retry", {
        channels: [
          { kind: "slack", url: receiver.url("/slack/flaky") },
          { kind: "teams", url: receiver.url("/teams/steady") },
          // Nothing listens there: the network's reason is recorded, not undici's "fetch failed".
          { kind: "teams", url: `https://localhost:${closedPort}/teams/closed` },
        ],
      }),
    );
    await f.runs("retry", 3, 3, at("30:10"));
    f.setClock(at("31:05"));
    await monitorPass(f.t.context);
    // The channels are sent concurrently: in either order.
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(
      expect.arrayContaining(["/slack/flaky", "/teams/steady"]),
    );
    expect(receiver.requests.length).toBe(before + 2);

    const [fired] = await f.alerts(m.id);
    const [slack, teams, closed] = fired.notifications;
    expect(closed).toMatchObject({ channel: 2, status: "pending", attempts: 1, host: `localhost:${closedPort}` });
    expect(closed.last_error).toMatch(/^connect ECONNREFUSED .+:\d+$/);
    expect(closed.response_status).toBeUndefined();
    expect(slack).toMatchObject({
      channel: 0,
      kind: "slack",
      host: `localhost:${receiver.port}`,
      status: "pending",
      attempts: 1,
      response_status: 500,
      last_attempt_at: at("31:05"),
    });
    expect(slack.last_error).toMatch(/^HTTP 500: no such hook /);
    expect(slack.last_error).not.toContain("/slack/flaky");
    expect(slack.sent_at).toBeUndefined();
    // The retry waits 30 s (±10%: the webhooks' schedule and jitter).
    const retryIn = Date.parse(slack.next_attempt_at!) - Date.parse(at("31:05"));
    expect(retryIn).toBeGreaterThanOrEqual(27_000);
    expect(retryIn).toBeLessThanOrEqual(33_000);
    expect(teams).toMatchObject({ kind: "teams", status: "sent", attempts: 1, response_status: 200 });
    expect(teams.sent_at).toBe(at("31:05"));
    expect(teams.next_attempt_at).toBeUndefined();

    // Not due again before its retry time; due after it.
    await monitorPass(f.t.context);
    expect(receiver.requests.length).toBe(before + 2);
    f.setClock(at("31:40"));
    await monitorPass(f.t.context);
    expect(receiver.requests.slice(before + 2).map((r) => r.path)).toEqual(["/slack/flaky"]);
    const [retried] = (await f.alerts(m.id))[0].notifications;
    expect(retried).toMatchObject({ status: "sent", attempts: 2, response_status: 200, sent_at: at("31:40") });
    expect(retried.last_error).toBeUndefined();
    expect(retried.next_attempt_at).toBeUndefined();
  });

  it("gives up after the schedule: the failed message is on the alert and in the failed-deliveries list", async () => {
    await f.clear();
    receiver.reply = (r) => (r.path === "/gh-api/repos/acme/down/dispatches" ? { status: 503 } : { status: 200 });
    f.setClock(at("40:30"));
    const m = await f.createMonitor(
      errorRateMonitor("down", {
        channels: [
          {
            kind: "github",
            repository: "acme/down",
            token: "ghp_down_token_0123456789",
            api_url: receiver.url("/gh-api"),
          },
        ],
      }),
    );
    await f.runs("down", 3, 3, at("40:10"));
    f.setClock(at("41:05"));
    await monitorPass(f.t.context);
    // Muted from here on: the resolution the next hour brings sends nothing; the fired message still retries.
    const mute = await f.t.call("POST", `/api/monitors/${m.id}/mute`, {
      key: f.key,
      body: { until: new Date(Date.parse(at("41:05")) + 86_400_000).toISOString() },
    });
    expect(mute.status, JSON.stringify(mute.body)).toBe(200);
    // Five attempts: at once, then after about 30 s, 2 min, 10 min and 30 min.
    let clock = Date.parse(at("41:05"));
    for (let attempt = 1; attempt <= 5; attempt++) {
      f.setClock(new Date(clock));
      if (attempt > 1) await monitorPass(f.t.context);
      const [n] = (await f.alerts(m.id))[0].notifications;
      expect(n).toMatchObject({ kind: "github", attempts: attempt, response_status: 503 });
      expect(n.status).toBe(attempt < 5 ? "pending" : "failed");
      if (n.next_attempt_at) clock = Date.parse(n.next_attempt_at);
    }
    const gh = receiver.requests.filter((r) => r.path === "/gh-api/repos/acme/down/dispatches");
    expect(gh.length).toBe(5);
    f.setClock(new Date(clock + 3_600_000));
    await monitorPass(f.t.context);
    expect(receiver.requests.filter((r) => r.path === "/gh-api/repos/acme/down/dispatches").length).toBe(5);

    const failed = await f.t.call("GET", `/api/monitors/${m.id}/notifications?status=failed`, { key: f.key });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.count).toBe(1);
    expect(failed.body.notifications[0]).toMatchObject({
      kind: "github",
      status: "failed",
      attempts: 5,
      last_error: "HTTP 503",
    });
    expect(failed.body.notifications[0].next_attempt_at).toBeUndefined();
    const sent = await f.t.call("GET", `/api/monitors/${m.id}/notifications?status=sent`, { key: f.key });
    expect(sent.body.count).toBe(0);
    // Another project sees none of it.
    const other = await f.t.newProject("monitors-other");
    const foreign = await f.t.call("GET", `/api/monitors/${m.id}/notifications`, { key: other.key });
    expect(foreign.status).toBe(404);
  });
});
