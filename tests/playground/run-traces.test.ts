import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { HttpClient } from "../helpers/http-client";
import { runsRecorded } from "../helpers/after-runs";

let t: TestApp;
let server: RunningServer;
let model: ScriptedModelServer;
let owner: HttpClient;

const agent = {
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [
    {
      type: "client",
      name: "pick_color",
      description: "Ask the user",
      input_schema: { type: "object", properties: {} },
    },
  ],
};
const uiHeaders = { "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" };

async function chat(text: string): Promise<string> {
  const body = {
    session_id: "s-1",
    flags: { stream: true },
    data: {
      inputs: { messages: [{ id: `u-${text}`, role: "user", parts: [{ type: "text", text }] }] },
      parameters: { agent },
    },
  };
  const r = await owner.send("POST", "/api/playground/invoke", { body, headers: uiHeaders });
  expect(r.status).toBe(200);
  const finish = String(r.body)
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)))
    .find((f) => f.type === "finish");
  return finish.messageMetadata.traceId;
}

/** The trace is recorded after the stream ends: await the run's end, store its queued spans, read it. */
async function ingest(traceId: string) {
  await runsRecorded(t.context);
  const found = await owner.query("traces.get", { traceId });
  expect(found.data?.count, `trace ${traceId}: ${JSON.stringify(found)}`).toBe(1);
  return found.data.trace;
}

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-run-trace-secret", baseUrl: model.baseUrl } } });
  server = await serveOverHttp(t);
  owner = new HttpClient(server.origin);
  expect(
    (
      await owner.send("POST", "/api/accounts/owner", {
        body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      })
    ).status,
  ).toBe(201);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await model.close();
});

describe("a chat turn's trace", () => {
  let traceId: string;

  it("is recorded under the trace id the stream's finish part carries: run > turn > model call, tokens and cost rolled up", async () => {
    model.script({
      kind: "reply",
      text: "Let me ask.",
      toolCalls: [{ id: "call_1", name: "pick_color", input: {} }],
      usage: { input: 1000, output: 200 },
    });
    traceId = await chat("choose a colour");
    const trace = await ingest(traceId);
    expect(trace.trace_id).toBe(traceId);
    const root = trace.spans["invoke_agent inline agent"];
    expect(root).toMatchObject({ status_code: "STATUS_CODE_OK", session_id: "s-1" });
    // A client tool is answered by the browser, not executed here: the model call shows the request.
    const modelCall = root.spans["turn 1"].spans["chat gpt-5-mini"];
    expect(JSON.stringify(modelCall.attributes)).toContain("pick_color");
    expect(root.attributes.ag.metrics.tokens.cumulative).toMatchObject({ prompt: 1000, completion: 200 });
    expect(root.attributes.ag.metrics.costs.cumulative.total).toBeCloseTo(1000 * 0.25e-6 + 200 * 2e-6, 10);
    expect(JSON.stringify(trace)).not.toContain("sk-run-trace-secret");
  });

  it("a failed turn's trace is an error, found by the status filter", async () => {
    model.script({ kind: "status", status: 500 });
    const failed = await chat("this one fails");
    const trace = await ingest(failed);
    expect(trace.spans["invoke_agent inline agent"]).toMatchObject({ status_code: "STATUS_CODE_ERROR" });
    const errors = await owner.query("traces.list", { status: "error" });
    expect(errors.data.traces.map((tr: { trace_id: string }) => tr.trace_id)).toEqual([failed]);
    const ok = await owner.query("traces.list", { status: "ok", since: "1h" });
    expect(ok.data.traces.map((tr: { trace_id: string }) => tr.trace_id)).toEqual([traceId]);
  });

  it("the agent and cost filters find a stored agent's run and the traces that cost at least an amount", async () => {
    const created = (await owner.mutate("agents.create", { name: "Refund bot" })).data;
    const committed = await owner.mutate("agents.commit", {
      variantId: created.variant.id,
      template: { llm: agent.llm },
      message: "plain",
    });
    expect(committed.status).toBe(200);
    model.script({ kind: "reply", text: "Refunded.", usage: { input: 4000, output: 1000 } });
    const body = {
      session_id: "s-2",
      flags: { stream: true },
      references: { workflow_variant: { id: created.variant.id } },
      data: { inputs: { messages: [{ id: "u-r", role: "user", parts: [{ type: "text", text: "refund me" }] }] } },
    };
    const r = await owner.send("POST", "/api/playground/invoke", { body, headers: uiHeaders });
    expect(r.status).toBe(200);
    const finish = String(r.body)
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)))
      .find((f) => f.type === "finish");
    const refundTrace = finish.messageMetadata.traceId as string;
    await ingest(refundTrace);
    const ids = async (input: Record<string, unknown>) =>
      (await owner.query("traces.list", input)).data.traces.map((tr: { trace_id: string }) => tr.trace_id);

    expect(await ids({ agent: created.agent.slug })).toEqual([refundTrace]);
    expect(await ids({ agent: "no-such-agent" })).toEqual([]);
    // 0.00065 USD for the first chat, 0.003 for this one (gpt-5-mini: 0.25 and 2 USD per million tokens).
    expect(await ids({ minCost: 0.0006 })).toEqual([refundTrace, traceId]);
    expect(await ids({ minCost: 0.001 })).toEqual([refundTrace]);
    expect(await ids({ minCost: 0.001, agent: created.agent.slug, status: "ok" })).toEqual([refundTrace]);
    expect((await owner.query("traces.list", { minCost: -1 })).status).toBe(422);
    // An analytics series' group: the model a span asked for, the revision the run ran.
    expect(await ids({ model: "gpt-5-mini", agent: created.agent.slug })).toEqual([refundTrace]);
    expect(await ids({ model: "gpt-4o" })).toEqual([]);
    expect(await ids({ revision: committed.data.revision.id })).toEqual([refundTrace]);
    expect(await ids({ revision: created.revision.id })).toEqual([]);
  });

  it("a chat with the editor's unsaved draft is the agent's run: named after it and found by the agent filter", async () => {
    const created = (await owner.mutate("agents.create", { name: "Draft bot" })).data;
    model.script({ kind: "reply", text: "Drafted.", usage: { input: 10, output: 5 } });
    const body = {
      session_id: "s-draft",
      flags: { stream: true },
      references: { workflow_variant: { id: created.variant.id } },
      data: {
        inputs: { messages: [{ id: "u-d", role: "user", parts: [{ type: "text", text: "try the draft" }] }] },
        parameters: { agent: { llm: agent.llm } },
      },
    };
    const r = await owner.send("POST", "/api/playground/invoke", { body, headers: uiHeaders });
    expect(r.status).toBe(200);
    const finish = String(r.body)
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)))
      .find((f) => f.type === "finish");
    const draftTrace = finish.messageMetadata.traceId as string;
    const trace = await ingest(draftTrace);
    const root = trace.spans[`invoke_agent ${created.agent.slug}`];
    expect(root).toBeDefined();
    // The draft is no revision: the run names the agent and its variant only.
    expect(root.references.map((ref: { attributes: { key: string } }) => ref.attributes.key).sort()).toEqual([
      "workflow",
      "workflow_variant",
    ]);
    const listed = await owner.query("traces.list", { agent: created.agent.slug });
    expect(listed.data.traces.map((tr: { trace_id: string }) => tr.trace_id)).toEqual([draftTrace]);
    // A reference to no agent is refused, not run as an unattributed draft.
    const unknown = await owner.send("POST", "/api/playground/invoke", {
      body: { ...body, references: { workflow_variant: { id: "019a0000-0000-7000-8000-000000000000" } } },
      headers: uiHeaders,
    });
    expect(unknown.status).toBe(404);
  });

  it("a bad trace id is a 400 naming it; an unknown one is count 0", async () => {
    const bad = await owner.query("traces.get", { traceId: "not-a-trace" });
    expect(bad.status).toBe(400);
    expect(bad.error!.message).toContain("not-a-trace");
    expect((await owner.query("traces.get", { traceId: "0".repeat(31) + "1" })).data).toEqual({ count: 0 });
  });
});
