import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterResponseSettled } from "@/server/boot";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { within } from "../helpers/within";
import { spanId, traceId } from "../tracing/helpers";
import { appFor, commitSomething, subscribe } from "../webhooks/helpers";

const CRON_SECRET = "cron-secret-0123456789abcdef";

/**
 * A serverless host as it runs here: no worker loop in the process (none is started in tests),
 * only the drain after each answer that may have queued work (WORKERS=after-response, Next.js's
 * `after()` on Vercel) and the cron route. Against WORKERS=off, where only the cron route works.
 */
describe("WORKERS=after-response", () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let off: TestApp;
  let server: RunningServer;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await appFor(receiver, { workers: "after-response", cronSecret: CRON_SECRET });
    off = await appFor(receiver, { workers: "off", cronSecret: CRON_SECRET });
    server = await serveOverHttp(t);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([t, off].map(async (app) => (await afterResponseSettled(app.context), app.close())));
    await receiver?.close();
  });

  const spans = (trace: string) => ({
    spans: [{ trace_id: trace, span_id: spanId(), span_name: "root", start_time: new Date().toISOString() }],
  });
  const stored = async (app: TestApp, key: string, trace: string) =>
    (await app.call("GET", `/api/traces/${trace}`, { key })).body.count === 1;

  it("reports its mode in /api/health", async () => {
    expect((await t.call("GET", "/api/health")).body.workers).toBe("after-response");
    expect((await off.call("GET", "/api/health")).body.workers).toBe("off");
  });

  it("makes an ingested span queryable right after the ingest's answer (web door)", async () => {
    const { key } = await t.newProject("serverless");
    const trace = traceId();
    expect((await t.call("POST", "/api/tracing/spans/ingest", { key, body: spans(trace) })).status).toBe(202);
    await afterResponseSettled(t.context);
    expect(await stored(t, key, trace)).toBe(true);
  });

  it("makes an ingested span queryable once the node door's answer has closed", async () => {
    const { key } = await t.newProject("serverless");
    const trace = traceId();
    // The node door starts its drain when it sees the response close, which may be just after the
    // client read it: that close is awaited (this listener is called before the door's own).
    const closed = new Promise<void>((resolve) =>
      server.server.once("request", (_req, res: ServerResponse) => res.once("close", () => resolve())),
    );
    const res = await fetch(`${server.origin}/api/tracing/spans/ingest`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
      body: JSON.stringify(spans(trace)),
    });
    expect(res.status).toBe(202);
    await res.text();
    await within(10_000, "the ingest answer's close, seen by the server", closed);
    await afterResponseSettled(t.context);
    expect(await stored(t, key, trace)).toBe(true);
  });

  it("makes a commit's first webhook attempt right after the commit's answer", async () => {
    const p = { t, ...(await t.newProject("serverless")) };
    await subscribe(p, receiver.url(), { event_types: ["applications.revisions.committed"] });
    await afterResponseSettled(t.context);
    const before = receiver.requests.length;
    await commitSomething(p);
    await afterResponseSettled(t.context);
    expect(receiver.requests.length).toBe(before + 1);
    expect(JSON.parse(receiver.requests.at(-1)!.rawBody).event.event_type).toBe("applications.revisions.committed");
  });

  it("with WORKERS=off nothing runs after an answer; the cron route is the safety net", async () => {
    const { key } = await off.newProject("serverless");
    const trace = traceId();
    expect((await off.call("POST", "/api/tracing/spans/ingest", { key, body: spans(trace) })).status).toBe(202);
    await afterResponseSettled(off.context);
    expect(await stored(off, key, trace)).toBe(false);
    const cron = await off.call("GET", "/api/cron/work", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(cron.status).toBe(200);
    expect(cron.body.workers["span-ingest"]).toEqual({ handled: 1 });
    expect(await stored(off, key, trace)).toBe(true);
  });
});
