import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listApiKeys } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { spansOf } from "../helpers/run-trace";
import { runsRecorded } from "../helpers/after-runs";

const OPERATOR_KEY = "sk-operator-planted-0123456789";
let app: TestApp;
let model: ScriptedModelServer;
let key: string;
let projectId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    providerEnv: { ...loadConfig({}).providerEnv, openai: { key: OPERATOR_KEY, baseUrl: model.baseUrl } },
  });
  ({ key, projectId } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

interface SpanNode {
  span_id: string;
  span_name: string;
  parent_id?: string;
  status_code?: string;
  attributes?: Record<string, any>;
  references?: Array<{ id?: string; slug?: string; version?: string }>;
  spans?: Record<string, SpanNode> | SpanNode[];
}

/** The run's trace, once its end is recorded and its spans went through the ingest queue (after the response). */
async function traceOf(traceId: string): Promise<any> {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/api/traces/${traceId}`, { key });
  // An unknown trace is `{count: 0}`, as the reference answers.
  expect(res.status === 200 && res.body.count > 0, `trace ${traceId}: ${JSON.stringify(res.body)}`).toBe(true);
  return res.body;
}

const invoke = (body: unknown, headers: Record<string, string> = {}) =>
  app.call("POST", "/services/agent/v0/invoke", { key, body, headers });

describe("every agent run is a trace", () => {
  it("records invoke_agent > turn > chat under the trace id the run reported, with usage and content", async () => {
    model.script({ kind: "reply", text: "Hi there!", usage: { input: 21, output: 4 } });
    const created = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "traced",
          name: "Traced",
          data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
        },
      },
    });
    expect(created.status).toBe(200);
    const res = await invoke({
      session_id: "sess-1",
      references: { workflow: { slug: "traced" } },
      data: { inputs: { messages: [{ role: "user", content: "hello" }] } },
    });
    expect(res.status).toBe(200);
    const traceId = res.headers.get("x-svc-trace-id")!;
    expect(res.body.trace_id).toBe(traceId);

    const fetched = await traceOf(traceId);
    const spans = spansOf<SpanNode>(fetched);
    const byName = (prefix: string) => spans.filter((s) => s.span_name.startsWith(prefix));
    const [root] = byName("invoke_agent");
    const [turn] = byName("turn ");
    const [chat] = byName("chat ");
    expect(root.span_name).toBe("invoke_agent traced");
    expect(turn).toMatchObject({ span_name: "turn 1", parent_id: root.span_id });
    expect(chat).toMatchObject({ span_name: "chat gpt-5-mini", parent_id: turn.span_id });
    expect(root.references?.map((r) => r.slug)).toEqual(expect.arrayContaining(["default", "traced"]));
    expect(root.references).toHaveLength(3);
    const chatJson = JSON.stringify(chat);
    expect(chatJson).toContain("hello");
    expect(chatJson).toContain("Hi there!");
    expect(chatJson).toContain("21");
    expect(JSON.stringify(root)).toContain("sess-1");
    expect(turn.attributes?.ag?.meta?.run?.turn).toBe(1);
    // Every span of the run names the API key that started it (analytics groups by it).
    const [apiKey] = await listApiKeys(app.context.db, projectId);
    for (const span of [root, turn, chat]) expect(span.attributes?.ag?.meta?.api_key?.id).toBe(apiKey.id);
  });

  it("marks a failed run as an error, and a key planted in a message never reaches the trace", async () => {
    model.script({ kind: "status", status: 401 });
    const res = await invoke({
      data: {
        inputs: { messages: [{ role: "user", content: `my key is ${OPERATOR_KEY}, keep it safe` }] },
        parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } },
      },
    });
    expect(res.status).toBe(200);
    const trace = await traceOf(res.headers.get("x-svc-trace-id")!);
    const text = JSON.stringify(trace);
    expect(text).not.toContain(OPERATOR_KEY);
    expect(text).toContain("[REDACTED]");
    const spans = spansOf<SpanNode>(trace);
    expect(spans.find((s) => s.span_name.startsWith("invoke_agent"))?.span_name).toBe("invoke_agent inline agent");
    expect(
      spans
        .filter((s) => s.status_code === "STATUS_CODE_ERROR")
        .map((s) => s.span_name.split(" ")[0])
        .sort(),
    ).toEqual(["chat", "invoke_agent", "turn"]);
  });

  it("continues an incoming traceparent", async () => {
    model.script({ kind: "reply", text: "ok" });
    const parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await invoke(
      {
        data: {
          inputs: { messages: [{ role: "user", content: "hi" }] },
          parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } },
        },
      },
      { traceparent: `00-${parentTrace}-00f067aa0ba902b7-01` },
    );
    expect(res.headers.get("x-svc-trace-id")).toBe(parentTrace);
    const root = spansOf<SpanNode>(await traceOf(parentTrace)).find((s) => s.span_name.startsWith("invoke_agent"))!;
    expect(root.parent_id).toBe("00f067aa0ba902b7");
  });
});
