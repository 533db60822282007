import { tool, jsonSchema } from "ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseAgentTemplate } from "@/server/agent-template";
import { coreHarness, startTurn, ToolRegistry, type RunRecord } from "@/server/agent-runs";
import type { NativeEvent } from "@/server/streams";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";

interface RecordedRun {
  events: NativeEvent[];
  record: RunRecord;
}

let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer();
});
afterAll(() => model.close());

it("a server-side tool type plugs in through the registry alone: it executes in the loop and the turn continues", async () => {
  // Stands in for a later issue's builtin tools: registered here, nothing else changes.
  const registry = new ToolRegistry().register("builtin", (entry) => ({
    name: entry.type === "builtin" ? entry.name : "x",
    kind: "server",
    tool: tool({
      inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } } }),
      execute: async ({ path }) => `contents of ${path}`,
    }),
  }));
  const { template } = parseAgentTemplate({
    llm: { provider: "openai", model: "gpt-5-mini" },
    tools: [{ type: "builtin", name: "read" }],
  });
  const tools = await registry.build(template.tools, { projectId: "p", sessionId: "s" });
  model.script(
    { kind: "reply", text: "Reading.", toolCalls: [{ id: "call_r", name: "read", input: { path: "a.txt" } }] },
    { kind: "reply", text: "It says hello." },
  );
  const run: RecordedRun = await collectRun(template, tools);
  // Consecutive deltas collapsed: the shape of a two-step turn.
  const types = run.events
    .map((e) => e.type)
    .filter((t, i, all) => t !== "message_delta" || all[i - 1] !== "message_delta");
  expect(types).toEqual([
    "message_start",
    "message_delta",
    "message_end",
    "tool_call",
    "tool_call",
    "tool_result",
    "message_start",
    "message_delta",
    "message_end",
    "usage",
    "done",
  ]);
  expect(run.events.find((e) => e.type === "tool_result")).toEqual({
    type: "tool_result",
    id: "call_r",
    output: "contents of a.txt",
    isError: false,
  });
  expect(run.events.filter((e) => e.type === "message_start").map((e) => (e as { id: string }).id)).toEqual([
    "msg-0",
    "msg-1",
  ]);
  expect(run.events.at(-1)).toMatchObject({ type: "done", stopReason: "stop" });
  expect(run.record.steps).toHaveLength(2);
  expect(run.record.steps[0].toolCalls).toEqual([
    expect.objectContaining({ id: "call_r", name: "read", endedAt: expect.any(Number) }),
  ]);
  expect(model.requests.at(-1)!.body.input.at(-1)).toEqual({
    type: "function_call_output",
    call_id: "call_r",
    output: "contents of a.txt",
  });

  async function collectRun(t: typeof template, built: typeof tools): Promise<RecordedRun> {
    const turn = startTurn(
      coreHarness,
      {
        projectId: "p",
        agent: {},
        template: t,
        messages: [{ role: "user", content: [{ type: "text", text: "read a.txt" }] }],
        connection: {
          provider: "openai",
          model: "gpt-5-mini",
          deployment: "direct",
          apiKey: "k",
          baseUrl: model.baseUrl,
          label: "test",
        },
        tools: built,
        sessionId: "s",
        limits: { totalMs: 10_000, firstTokenMs: 10_000, idleMs: 10_000, maxSteps: 5, maxRetries: 0 },
      },
      { traceId: "c".repeat(32), spanId: "d".repeat(16) },
      { harnessKind: "core_harness" },
    );
    const events: NativeEvent[] = [];
    for await (const event of turn.events as unknown as AsyncIterable<NativeEvent>) events.push(event);
    return { events, record: await turn.record };
  }
});
