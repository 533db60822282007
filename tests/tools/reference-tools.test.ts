import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import type { NativeEvent } from "@/server/streams";
import { invokeOver, type FormatName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { agentWorkflows } from "./agent-workflows";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let workflows: ReturnType<typeof agentWorkflows>;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0, referenceMaxDepth: 2 },
    providerEnv: { openai: { key: "sk-reference", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject());
  workflows = agentWorkflows(app, key);
  await workflows.create("helper", helper("helper v1"));
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

const llm = { provider: "openai", model: "gpt-5-mini" };
const helper = (agentsMd: string, tools: unknown[] = []) => ({
  instructions: { agents_md: agentsMd },
  llm,
  tools,
  runner: { permissions: { default: "allow" } },
});
const caller = (tools: unknown[]) => ({ llm, tools, runner: { permissions: { default: "allow" } } });
const ASK = {
  type: "reference",
  slug: "helper",
  description: "Asks the helper",
  input_schema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
};
const invoke = (format: FormatName, agent: unknown, text = "ask the helper") =>
  invokeOver(live.origin, key, "sse", format, {
    data: { inputs: { messages: [{ role: "user", content: text }] }, parameters: { agent } },
  });
// The openai provider speaks the Responses API: the system prompt is the first input item.
const systemOf = (request: { body: any }) => String(request.body.input[0].content);

describe("reference tools run another workflow as a nested batch run", () => {
  it.each(["native", "ui_sdk"] as const)(
    "the nested run gets the arguments and its final answer is the tool result (%s)",
    async (format) => {
      model.script(
        { kind: "reply", toolCalls: [{ id: "ref_1", name: "helper", input: { question: "what is 2+2?" } }] },
        { kind: "reply", text: "four" },
        { kind: "reply", text: "The helper says four." },
      );
      const before = model.requests.length;
      const o = await invoke(format, caller([ASK]));
      expect(o.status, JSON.stringify(o.batch)).toBe(200);
      const nested = model.requests[before + 1];
      expect(systemOf(nested)).toContain("helper v1");
      expect(JSON.stringify(nested.body.input.at(-1))).toContain("what is 2+2?");
      if (format === "native") {
        const result = o.events!.find((e) => e.type === "tool_result") as Extract<NativeEvent, { type: "tool_result" }>;
        expect(result).toMatchObject({ id: "ref_1", output: "four", isError: false });
      } else {
        expect(o.chunks!.find((c) => c.type === "tool-output-available")).toMatchObject({
          toolCallId: "ref_1",
          output: "four",
        });
      }
      // The caller's model saw the nested answer as the tool result.
      expect(JSON.stringify(model.requests[before + 2].body.input)).toContain("four");
    },
  );

  it("runs a pinned version, or what an environment runs, and a model-visible name", async () => {
    const { variantId, revisionId } = await workflows.create("pinned", helper("pinned v1"));
    await workflows.commit(variantId, helper("pinned v2"));
    await workflows.deploy(revisionId, "staging");
    const tools = [
      { type: "reference", slug: "pinned", name: "latest" },
      { type: "reference", slug: "pinned", version: "1", name: "first" },
      { type: "reference", slug: "pinned", ref_by: "environment", environment: "staging", name: "staged" },
    ];
    for (const [name, expected] of [
      ["latest", "pinned v2"],
      ["first", "pinned v1"],
      ["staged", "pinned v1"],
    ]) {
      model.script(
        { kind: "reply", toolCalls: [{ id: `c_${name}`, name, input: {} }] },
        { kind: "reply", text: `from ${name}` },
        { kind: "reply", text: "ok" },
      );
      const before = model.requests.length;
      const o = await invoke("native", caller(tools));
      expect(o.status).toBe(200);
      expect(systemOf(model.requests[before + 1])).toContain(expected);
      expect(o.events!.find((e) => e.type === "tool_result")).toMatchObject({ output: `from ${name}`, isError: false });
    }
  });

  it("cuts recursion at the depth limit with a clear error the model sees", async () => {
    await workflows.create("loop", helper("loop agent", [{ type: "reference", slug: "loop" }]));
    // depth 0 (caller) -> 1 (loop) -> 2 (loop) -> 3 refused: AGENT_REFERENCE_MAX_DEPTH is 2 here.
    model.script(
      { kind: "reply", toolCalls: [{ id: "d1", name: "loop", input: {} }] },
      { kind: "reply", toolCalls: [{ id: "d2", name: "loop", input: {} }] },
      { kind: "reply", toolCalls: [{ id: "d3", name: "loop", input: {} }] },
      { kind: "reply", text: "depth 2 stopped" },
      { kind: "reply", text: "depth 1 done" },
      { kind: "reply", text: "all done" },
    );
    const before = model.requests.length;
    const o = await invoke("native", caller([{ type: "reference", slug: "loop" }]));
    expect(o.status).toBe(200);
    expect(model.requests.length - before).toBe(6);
    const refused = JSON.stringify(model.requests[before + 3].body.input);
    expect(refused).toContain("nested runs stop at depth 2 (AGENT_REFERENCE_MAX_DEPTH)");
    expect(o.events!.find((e) => e.type === "tool_result")).toMatchObject({
      id: "d1",
      output: "depth 1 done",
      isError: false,
    });
  });

  it("the nested run is a child in the trace: its invoke_agent span's parent is the calling execute_tool span", async () => {
    model.script(
      { kind: "reply", toolCalls: [{ id: "traced_1", name: "helper", input: { question: "q" } }] },
      { kind: "reply", text: "nested answer" },
      { kind: "reply", text: "done" },
    );
    const o = await invoke("native", caller([ASK]));
    const traceId = (o.events!.at(-1) as { traceId: string }).traceId;
    const spans = await workflows.spans(traceId, 8);
    const roots = spans.filter((s) => s.span_name.startsWith("invoke_agent"));
    expect(roots.map((s) => s.span_name).sort()).toEqual(["invoke_agent helper", "invoke_agent inline agent"]);
    const outer = roots.find((s) => s.span_name === "invoke_agent inline agent")!;
    const inner = roots.find((s) => s.span_name === "invoke_agent helper")!;
    const tool = spans.find((s) => s.span_name === "execute_tool helper")!;
    const outerTurn = spans.find((s) => s.span_name.startsWith("turn") && s.parent_id === outer.span_id)!;
    expect(tool.parent_id).toBe(outerTurn.span_id);
    expect(inner.parent_id).toBe(tool.span_id);
    const innerTurn = spans.find((s) => s.span_name.startsWith("turn") && s.parent_id === inner.span_id)!;
    expect(spans.some((s) => s.span_name.startsWith("chat") && s.parent_id === innerTurn.span_id)).toBe(true);
  });

  it.each(["native", "ui_sdk"] as const)(
    "a referenced revision that does not exist refuses the run before it starts, naming the entry (%s)",
    async (format) => {
      const before = model.requests.length;
      const missing = await invoke(format, caller([{ type: "reference", slug: "nowhere", name: "ghost" }]));
      expect(missing.status).toBe(400);
      expect(missing.batch).toMatchObject({ code: "reference_not_found" });
      expect(missing.batch.detail).toContain('reference tool "ghost"');
      expect(missing.batch.detail).toContain('"nowhere"');
      const version = await invoke(format, caller([{ type: "reference", slug: "helper", version: "9" }]));
      expect(version.status).toBe(400);
      expect(version.batch.detail).toContain('version 9 of workflow "helper"');
      const environment = await invoke(
        format,
        caller([{ type: "reference", slug: "helper", ref_by: "environment", environment: "production" }]),
      );
      expect(environment.status).toBe(400);
      expect(environment.batch.detail).toContain('as deployed to environment "production"');
      expect(model.requests.length).toBe(before);
    },
  );
});

describe("a long nested run", () => {
  it("keeps the calling turn alive: the nested run's events count against the caller's idle limit", async () => {
    const idle = await createTestApp({
      agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0, idleMs: 1_500, firstTokenMs: 1_500 },
      providerEnv: { openai: { key: "sk-reference", baseUrl: model.baseUrl } },
    });
    const server = await serveOnLoopback(idle.handle);
    try {
      const { key: idleKey } = await idle.newProject();
      await agentWorkflows(idle, idleKey).create("sleeper", helper("sleeper", [{ type: "builtin", name: "bash" }]));
      const nap = (id: string) => ({
        kind: "reply" as const,
        toolCalls: [{ id, name: "bash", input: { command: "sleep 0.6" } }],
      });
      model.script(
        { kind: "reply", toolCalls: [{ id: "long_1", name: "sleeper", input: {} }] },
        nap("n1"),
        nap("n2"),
        nap("n3"),
        nap("n4"),
        { kind: "reply", text: "rested" },
        { kind: "reply", text: "done" },
      );
      const started = Date.now();
      const o = await invokeOver(server.origin, idleKey, "sse", "native", {
        data: {
          inputs: { messages: [{ role: "user", content: "rest" }] },
          parameters: { agent: caller([{ type: "reference", slug: "sleeper" }]) },
        },
      });
      // Longer than the idle limit in all, with no gap as long.
      expect(Date.now() - started).toBeGreaterThan(2_400);
      expect(o.events!.filter((e) => e.type === "error")).toEqual([]);
      expect(o.events!.find((e) => e.type === "tool_result")).toMatchObject({
        id: "long_1",
        output: "rested",
        isError: false,
      });
      expect(o.events!.at(-1)).toMatchObject({ type: "done", stopReason: "stop" });
    } finally {
      await server.close();
      await idle.close();
    }
  }, 60_000);
});
