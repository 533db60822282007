import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { webhookPayloadSchema } from "@/server/webhooks";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { attribute, traceSpans } from "../helpers/run-trace";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { within } from "../helpers/within";
import { appFor, drainUntil, subscribe } from "../webhooks/helpers";

// A cancel is the service's own abort: whatever the provider's client makes of the cut-off
// request (a reply broken off mid-stream reads like a lost connection), the run ends `cancelled`
// in its record, its event log, its trace and its webhook, never `failed` with a provider error.

let receiver: WebhookReceiver;
let model: ScriptedModelServer;
let t: TestApp;
let live: RunningServer;
let key: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  model = await startScriptedModelServer();
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "localhost,127.0.0.1" });
  t = await appFor(receiver, {
    egressAllowlist,
    providerEnv: { openai: { key: "sk-cancel", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(t.handle);
  const p = await t.newProject("cancels");
  key = p.key;
  await subscribe({ t, ...p }, receiver.url(), { event_types: ["agents.runs.finished", "agents.runs.failed"] });
  // A custom provider (a stored URL, reached through the egress-guarded fetch), as in the report.
  const custom = await t.call("POST", "/api/vault/v1/secrets/", {
    key,
    body: {
      header: { name: "Local" },
      secret: {
        kind: "custom_provider",
        data: { kind: "custom", provider: { url: model.baseUrl }, models: [{ slug: "llama3.2" }] },
      },
    },
  });
  expect(custom.status).toBe(201);
});
afterAll(async () => {
  await live.close();
  await t.close();
  await model.close();
  await receiver.close();
});

const LLMS = [
  ["the operator's provider", { provider: "openai", model: "gpt-5-mini" }],
  ["a custom provider", { model: "llama3.2" }],
] as const;

const body = (llm: object, flags?: object) => ({
  flags,
  data: { inputs: { messages: [{ role: "user", content: "write slowly" }] }, parameters: { agent: { llm } } },
});

/** Follows the run's event log (SSE) until a delta is in it, then stops following. */
async function deltaLogged(runId: string): Promise<void> {
  const res = await fetch(`${live.origin}/services/agent/v0/runs/${runId}/events`, {
    headers: { authorization: `ApiKey ${key}`, accept: "text/event-stream" },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!text.includes('"message_delta"')) {
      const next = await reader.read();
      if (next.done) throw new Error(`the run's log ended without a delta: ${text}`);
      text += next.value;
    }
  } finally {
    await reader.cancel();
  }
}

const cancel = (runId: string) => t.call("POST", `/services/agent/v0/runs/${runId}/cancel`, { key });

/** Every record of the run says it was cancelled, and none blames the provider. */
async function expectCancelledEverywhere(runId: string) {
  const detail = await t.call("GET", `/services/agent/v0/runs/${runId}`, { key });
  expect(detail.body.run).toMatchObject({ status: "cancelled", stop_reason: "cancelled" });
  expect(detail.body.run.error ?? null).toBeNull();
  const events = detail.body.events as Array<{ type: string; data: any }>;
  expect(events.filter((e) => e.type === "error")).toEqual([]);
  expect(events.at(-1)).toMatchObject({ type: "done", data: { stopReason: "cancelled" } });

  const spans = await traceSpans(t, key, detail.body.run.trace_id, 3);
  const root = spans.find((s) => s.span_name.startsWith("invoke_agent"))!;
  expect(attribute(root, "ag.meta.run.stop_reason")).toBe("cancelled");
  for (const span of spans) {
    expect(span.status_code).not.toBe("STATUS_CODE_ERROR");
    expect(span.status_message ?? "").not.toMatch(/provider/);
  }

  const hookOf = () => receiver.requests.find((r) => JSON.parse(r.rawBody).event.attributes.run_id === runId);
  await drainUntil(t, () => hookOf() !== undefined);
  const hook = hookOf()!;
  const payload = webhookPayloadSchema.parse(JSON.parse(hook.rawBody));
  expect(payload.event.event_type).toBe("agents.runs.finished");
  expect(payload.event.attributes).toMatchObject({ run_id: runId, status: "cancelled", stop_reason: "cancelled" });
  expect(JSON.stringify(detail.body)).not.toMatch(/lost before the reply|retry the turn/);
}

describe.each(LLMS)("cancelling a run on %s", (_name, llm) => {
  it("a background turn cancelled mid-answer ends cancelled", async () => {
    model.script({ kind: "reply", text: "one two three four five six seven eight", chunks: 8, frameDelayMs: 300 });
    const aborted = model.nextAbort();
    const res = await t.call("POST", "/services/agent/v0/invoke", { key, body: body(llm, { background: true }) });
    expect(res.status).toBe(202);
    const runId = res.body.run_id as string;
    // Wait until the answer has begun: a delta is in the run's log (its follower, which reads the
    // log, has passed one on).
    await within(10_000, "a delta in the run's log", deltaLogged(runId));
    const cancelled = await cancel(runId);
    await aborted;
    expect(cancelled.body).toMatchObject({ id: runId, status: "cancelled", stop_reason: "cancelled" });
    await expectCancelledEverywhere(runId);
  });

  it("a background turn cancelled before the model answered ends cancelled", async () => {
    model.script({ kind: "hang" });
    const arrived = model.nextRequest();
    const aborted = model.nextAbort();
    const res = await t.call("POST", "/services/agent/v0/invoke", { key, body: body(llm, { background: true }) });
    await arrived;
    const cancelled = await cancel(res.body.run_id);
    await aborted;
    expect(cancelled.body).toMatchObject({ status: "cancelled", stop_reason: "cancelled" });
    await expectCancelledEverywhere(res.body.run_id);
  });

  it("a streaming turn cancelled mid-answer ends its stream and its run cancelled", async () => {
    model.script({ kind: "reply", text: "one two three four five six seven eight", chunks: 8, frameDelayMs: 300 });
    const aborted = model.nextAbort();
    const res = await fetch(`${live.origin}/services/agent/v0/invoke`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body(llm)),
    });
    const runId = res.headers.get("x-svc-run-id")!;
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes('"message_delta"')) text += (await reader.read()).value;
    const cancelled = await cancel(runId);
    await aborted;
    expect(cancelled.body).toMatchObject({ status: "cancelled", stop_reason: "cancelled" });
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += next.value;
    expect(text).not.toContain('"type":"error"');
    expect(text).toMatch(/"type":"done","data":\{"stopReason":"cancelled"/);
    await expectCancelledEverywhere(runId);
  });
});
