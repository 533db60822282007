import { Output } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveConnection, tracedModelCall, type ResolvedConnection } from "@/server/agent-runs";
import type { AgentTemplate } from "@/server/agent-template";
import { loadConfig } from "@/server/core/config";
import { isAppError } from "@/server/core/errors";
import { vaultOf } from "@/server/vault";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { attribute, traceSpans, type SpanNode } from "../helpers/run-trace";

const OPERATOR_KEY = "sk-operator-traced-call-0123456789";
let app: TestApp;
let model: ScriptedModelServer;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    providerEnv: { ...loadConfig({}).providerEnv, openai: { key: OPERATOR_KEY, baseUrl: model.baseUrl } },
  });
});
afterAll(async () => {
  await app.close();
  await model.close();
});

async function project(): Promise<{ key: string; projectId: string; connection: ResolvedConnection }> {
  const { key, projectId } = await app.newProject();
  const llm = {
    provider: "openai",
    model: "gpt-5-mini",
    connection: null,
    extras: {},
  } as unknown as AgentTemplate["llm"];
  const deps = { config: app.context.config, vault: vaultOf(app.context), db: app.context.db, projectId };
  return { key, projectId, connection: await resolveConnection(llm, deps) };
}

const named = (spans: SpanNode[], prefix: string) => spans.find((s) => s.span_name.startsWith(prefix))!;

describe("tracedModelCall", () => {
  it("records a text call as invoke_agent > turn 1 > chat, priced, with the key redacted from the content", async () => {
    const { key, projectId, connection } = await project();
    model.script({ kind: "reply", text: "Nine.", usage: { input: 21, output: 4 } });
    const call = await tracedModelCall(app.context, {
      projectId,
      connection,
      agent: { name: "service-caller", references: { thing: { id: "thing-1" } } },
      harness: "prompt",
      messages: [{ role: "user", content: `Add 4 and 5 (my key is ${OPERATOR_KEY}).` }],
      request: { messages: [{ role: "user", content: "Add 4 and 5." }], maxRetries: 0 },
    });
    expect(call).toMatchObject({ text: "Nine.", tokens: 25, failure: undefined });
    expect(call.costUsd).toBeGreaterThan(0);
    expect(call.latencyMs).toBeGreaterThan(0);

    const spans = await traceSpans(app, key, call.traceId, 3);
    const root = named(spans, "invoke_agent");
    const turn = named(spans, "turn ");
    const chat = named(spans, "chat ");
    expect(root.span_name).toBe("invoke_agent service-caller");
    expect(turn).toMatchObject({ span_name: "turn 1", parent_id: root.span_id });
    expect(chat).toMatchObject({ span_name: "chat gpt-5-mini", parent_id: turn.span_id });
    expect(attribute(root, "ag.meta.run.harness")).toBe("prompt");
    expect(attribute(root, "ag.meta.run.stop_reason")).toBe("end_turn");
    expect(attribute(chat, "gen_ai.usage")).toEqual({ input_tokens: 21, output_tokens: 4 });
    expect(attribute(chat, "ag.metrics.costs.incremental.total")).toBeCloseTo(call.costUsd!, 12);
    expect(JSON.stringify(spans)).toContain("Nine.");
    expect(JSON.stringify(spans)).not.toContain(OPERATOR_KEY);
    // The session is the trace's own id unless the caller names one.
    const listed = await app.call("GET", `/api/traces/${call.traceId}`, { key });
    expect(JSON.stringify(listed.body)).toContain(`"session_id":"${call.traceId}"`);
  });

  it("with output, answers the parsed object and records it as the step's text, under the caller's session", async () => {
    const { key, projectId, connection } = await project();
    const reply = { answer: 9, ignored: "dropped by the schema" };
    model.script({ kind: "reply", text: JSON.stringify(reply), usage: { input: 10, output: 6 } });
    const call = await tracedModelCall(app.context, {
      projectId,
      connection,
      agent: { name: "structured" },
      harness: "triage",
      messages: [{ role: "user", content: "Add 4 and 5, as JSON." }],
      sessionId: "batch-7",
      request: {
        prompt: "Add 4 and 5, as JSON.",
        output: Output.object({ schema: z.object({ answer: z.number() }) }),
        maxRetries: 0,
      },
    });
    expect(call.output).toEqual({ answer: 9 });
    const spans = await traceSpans(app, key, call.traceId, 3);
    const chat = named(spans, "chat ");
    expect(JSON.stringify(attribute(chat, "ag.data.outputs"))).toContain(
      JSON.stringify(JSON.stringify({ answer: 9 })).slice(1, -1),
    );
    expect(JSON.stringify(spans)).not.toContain("dropped by the schema");
    expect(attribute(named(spans, "invoke_agent"), "ag.meta.run.harness")).toBe("triage");
    const listed = await app.call("GET", `/api/traces/${call.traceId}`, { key });
    expect(JSON.stringify(listed.body)).toContain('"session_id":"batch-7"');
  });

  it("a failed call comes back as failure in the caller's words, recorded on the trace as the run's error", async () => {
    const { key, projectId, connection } = await project();
    model.script({ kind: "status", status: 503, message: "upstream is down" });
    const since = { startedAt: Date.now() - 5_000, started: performance.now() - 5_000 };
    const call = await tracedModelCall(app.context, {
      projectId,
      connection,
      agent: { name: "failing" },
      harness: "prompt",
      messages: [{ role: "user", content: "hi" }],
      request: { prompt: "hi", maxRetries: 0 },
      describeFailure: (error, message) => `status ${(error as { statusCode?: number }).statusCode}: ${message}`,
      since,
    });
    expect(call.failure).toBe("status 503: upstream is down");
    expect(call).toMatchObject({ text: "", tokens: 0 });
    expect(call.latencyMs).toBeGreaterThanOrEqual(5_000);
    const spans = await traceSpans(app, key, call.traceId, 3);
    const root = named(spans, "invoke_agent");
    expect(root.status_code).toBe("STATUS_CODE_ERROR");
    expect(root.status_message).toBe("status 503: upstream is down");
    expect(attribute(root, "ag.meta.run.stop_reason")).toBe("error");
    // The trace starts when the caller's work began, not when the model was called.
    expect(Date.parse(root.start_time)).toBe(since.startedAt);
  });

  it("counts the call against the project's budget, and a spent budget refuses the next before anything is sent", async () => {
    const { key, projectId, connection } = await project();
    const budget = await app.call("POST", "/api/controls/budgets/", {
      key,
      body: { name: "tiny", scope: "project", window: "month", limit_usd: 0.1 },
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    model.script({ kind: "reply", text: "expensive", usage: { input: 1_000_000, output: 0 } });
    const call = {
      projectId,
      connection,
      agent: { name: "spender" },
      harness: "prompt",
      messages: [{ role: "user", content: "hi" }],
      request: { prompt: "hi", maxRetries: 0 },
    };
    const first = await tracedModelCall(app.context, call);
    expect(first.costUsd).toBeGreaterThan(0.1);
    const sent = model.requests.length;
    const refused = await tracedModelCall(app.context, call).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isAppError(refused) && refused.status).toBe(402);
    expect((refused as Error).message).toContain('Budget "tiny"');
    expect(model.requests.length).toBe(sent);
  });
});
