import { describe, expect, it } from "vitest";
import { runSpans } from "./run-spans";
import type { RunRecord } from "./run-types";

const record: RunRecord = {
  projectId: "p",
  agent: { name: "helper", references: { workflow_revision: { id: "r1", slug: "rev", version: "3" } } },
  messages: [
    { role: "user", content: [{ type: "text", text: "first" }] },
    { role: "assistant", content: [{ type: "text", text: "ok" }] },
    { role: "user", content: [{ type: "text", text: "read a.txt" }] },
  ],
  traceId: "a".repeat(32),
  spanId: "b".repeat(16),
  sessionId: "s1",
  provider: "openai",
  model: "gpt-5-mini",
  harness: "core_harness",
  startedAt: 1_000,
  endedAt: 2_000,
  stopReason: "stop",
  steps: [
    {
      index: 0,
      startedAt: 1_000,
      endedAt: 1_400,
      finishReason: "tool_calls",
      usage: { prompt: 10, completion: 2 },
      toolCalls: [{ id: "c1", name: "read", input: { path: "a.txt" }, startedAt: 1_400, endedAt: 1_500 }],
    },
    {
      index: 1,
      startedAt: 1_500,
      endedAt: 2_000,
      finishReason: "stop",
      usage: { prompt: 14, completion: 5 },
      text: "It says hi.",
      toolCalls: [],
    },
  ],
};

let n = 0;
const ids = () => String(++n).padStart(16, "0");

describe("runSpans", () => {
  it("builds invoke_agent > turn > chat per model call and execute_tool per tool call", () => {
    const spans = runSpans(record, { captureContent: true, newSpanId: ids });
    expect(spans.map((s) => [s.span_name, s.parent_id ?? null])).toEqual([
      ["invoke_agent helper", null],
      ["turn 2", "b".repeat(16)],
      ["chat gpt-5-mini", spans[1].span_id],
      ["chat gpt-5-mini", spans[1].span_id],
      ["execute_tool read", spans[1].span_id],
    ]);
    expect(spans[2].attributes).toMatchObject({ "gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": 2 });
    expect(spans[2].attributes!["gen_ai.input.messages"]).toContain("read a.txt");
    expect(spans[3].attributes!["gen_ai.input.messages"]).toBeUndefined();
    expect(spans[3].attributes!["gen_ai.output.messages"]).toContain("It says hi.");
    expect(spans[4].attributes).toMatchObject({
      "gen_ai.tool.name": "read",
      "gen_ai.tool.call.arguments": '{"path":"a.txt"}',
    });
    expect(spans[0].references).toEqual([
      { id: "r1", slug: "rev", version: "3", attributes: { key: "workflow_revision" } },
    ]);
    expect(spans.every((s) => s.status_code === "STATUS_CODE_OK")).toBe(true);
  });

  it("leaves content out when capture is off, and keeps usage", () => {
    const text = JSON.stringify(runSpans(record, { captureContent: false, newSpanId: ids }));
    expect(text).not.toContain("read a.txt");
    expect(text).not.toContain("It says hi.");
    expect(text).not.toContain("a.txt");
    expect(text).toContain('"gen_ai.usage.input_tokens":14');
  });

  it("shows the attempted model call of a run that failed before any step", () => {
    const spans = runSpans(
      { ...record, steps: [], stopReason: "error", error: "the openai connection was rejected: 401" },
      { captureContent: false, newSpanId: ids },
    );
    expect(spans.map((s) => s.span_name)).toEqual(["invoke_agent helper", "turn 2", "chat gpt-5-mini"]);
    expect(spans.map((s) => s.status_code)).toEqual(["STATUS_CODE_ERROR", "STATUS_CODE_ERROR", "STATUS_CODE_ERROR"]);
    expect(spans[0].status_message).toContain("401");
  });

  it("the root span lists the run's skills and MCP servers, and says nothing when it had none", () => {
    const [root] = runSpans(
      { ...record, skills: ["pdf-tools"], mcpServers: ["docs", "tickets"] },
      { captureContent: false, newSpanId: ids },
    );
    expect(root.attributes).toMatchObject({
      "ag.meta.run.skills": ["pdf-tools"],
      "ag.meta.run.mcp_servers": ["docs", "tickets"],
    });
    const [bare] = runSpans({ ...record, skills: [], mcpServers: [] }, { captureContent: false, newSpanId: ids });
    expect(Object.keys(bare.attributes ?? {}).filter((k) => k.includes("skills") || k.includes("mcp"))).toEqual([]);
  });
});
