import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookPayloadSchema } from "@/server/webhooks";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { appFor, drainUntil, subscribe } from "../webhooks/helpers";

let receiver: WebhookReceiver;
let model: ScriptedModelServer;
let t: TestApp;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  model = await startScriptedModelServer();
  t = await appFor(receiver, { providerEnv: { openai: { key: "sk-background", baseUrl: model.baseUrl } } });
});
afterAll(async () => {
  await t.close();
  await model.close();
  await receiver.close();
});

it("flags.background answers 202 with the run id; the run finishes alone and a webhook says so", async () => {
  const p = { t, ...(await t.newProject("background")) };
  await subscribe(p, receiver.url(), { event_types: ["agents.runs.finished", "agents.runs.paused"] });
  model.script({ kind: "reply", text: "Done in the background", delayMs: 1_500, usage: { input: 4, output: 2 } });
  const res = await t.call("POST", "/services/agent/v0/invoke", {
    key: p.key,
    body: {
      session_id: "bg-1",
      flags: { background: true },
      data: {
        inputs: { messages: [{ role: "user", content: "work" }] },
        parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } },
      },
    },
  });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({
    run_id: expect.any(String),
    session_id: "bg-1",
    trace_id: expect.any(String),
    status: "running",
  });
  const runId = res.body.run_id;
  expect(res.headers.get("x-svc-run-id")).toBe(runId);
  // Answered before the model did: the run is still going.
  const running = await t.call("GET", `/services/agent/v0/runs/${runId}`, { key: p.key });
  expect(running.body.run).toMatchObject({ status: "running", lease: { expires_at: expect.any(String) } });

  await drainUntil(t, () => receiver.succeeded.length === 1);
  const body = webhookPayloadSchema.parse(JSON.parse(receiver.requests[0].rawBody));
  expect(body.event.event_type).toBe("agents.runs.finished");
  expect(body.event.attributes).toEqual({
    run_id: runId,
    session_id: "bg-1",
    trace_id: res.body.trace_id,
    status: "finished",
    stop_reason: "stop",
    usage: { input: 4, output: 2, total: 6, cost: expect.any(Number) },
    references: null,
    origin: "invoke",
    parent_run_id: null,
  });
  const run = await t.call("GET", `/services/agent/v0/runs/${runId}`, { key: p.key });
  expect(run.body.run).toMatchObject({ status: "finished", background: true });
  expect(run.body.outputs.messages).toEqual([{ role: "assistant", content: "Done in the background" }]);

  // A run that waits for a client tool is paused, and says so.
  model.script({ kind: "reply", toolCalls: [{ id: "call_1", name: "ask", input: {} }] });
  const paused = await t.call("POST", "/services/agent/v0/invoke", {
    key: p.key,
    body: {
      flags: { background: true },
      data: {
        inputs: { messages: [{ role: "user", content: "ask me" }] },
        parameters: {
          agent: {
            llm: { provider: "openai", model: "gpt-5-mini" },
            tools: [{ type: "client", name: "ask", input_schema: { type: "object" } }],
          },
        },
      },
    },
  });
  await drainUntil(t, () => receiver.succeeded.length === 2);
  const second = webhookPayloadSchema.parse(JSON.parse(receiver.requests[1].rawBody));
  expect(second.event.event_type).toBe("agents.runs.paused");
  expect(second.event.attributes).toMatchObject({
    run_id: paused.body.run_id,
    status: "paused",
    stop_reason: "paused",
  });
});
