import { describe, expect, it } from "vitest";
import type { NativeEvent } from "./native-event";
import { OpenAiChatProjection } from "./openai-chat-projection";

const options = { id: "chatcmpl-1", model: "greeter", created: 1700000000, includeUsage: true };
const run = (events: NativeEvent[]) => {
  const projection = new OpenAiChatProjection(options);
  const items = [...events.flatMap((event) => projection.push(event)), ...projection.end()];
  return { projection, items: items as any[] };
};

describe("OpenAiChatProjection", () => {
  it("streams role, content deltas with a blank line between blocks, finish and usage; the batch agrees", () => {
    const { projection, items } = run([
      { type: "message_start", id: "msg-0" },
      { type: "message_delta", id: "msg-0", delta: "I'll check." },
      { type: "message_end", id: "msg-0" },
      { type: "tool_call", id: "t1", name: "search", input: { q: "x" } },
      { type: "tool_result", id: "t1", output: "found" },
      { type: "message_delta", id: "msg-1", delta: "Found it." },
      { type: "usage", input: 10, output: 5, total: 15 },
      { type: "done", stopReason: "stop", traceId: "t" },
    ]);
    expect(items.map((c) => c.choices[0]?.delta ?? "usage")).toEqual([
      { role: "assistant", content: "" },
      { content: "I'll check." },
      { content: "\n\nFound it." },
      {},
      "usage",
    ]);
    expect(items.at(-2).choices[0].finish_reason).toBe("stop");
    expect(items.at(-1)).toEqual({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1700000000,
      model: "greeter",
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    expect(items[1].usage).toBeNull();
    expect(projection.completion().choices[0]).toEqual({
      index: 0,
      message: { role: "assistant", content: "I'll check.\n\nFound it.", refusal: null },
      finish_reason: "stop",
      logprobs: null,
    });
  });

  it("a paused client tool is a tool_calls delta and finish_reason tool_calls; server tools stay hidden", () => {
    const { projection, items } = run([
      { type: "tool_call", id: "c1", name: "pick", input: {} },
      { type: "tool_call", id: "c1", name: "pick", input: { hint: "warm" } },
      {
        type: "interaction_request",
        id: "c1",
        kind: "client_tool",
        payload: { toolCallId: "c1", toolName: "pick", input: { hint: "warm" } },
      },
      { type: "done", stopReason: "paused", traceId: "t" },
    ]);
    const calls = items.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: "c1", type: "function", function: { name: "pick", arguments: '{"hint":"warm"}' } },
    ]);
    expect(projection.completion().choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, tool_calls: [calls[0]].map(({ index: _, ...call }) => call) },
    });
  });

  it("a run error ends the stream with an error object; length and content filter map to OpenAI's reasons", () => {
    const failed = run([
      { type: "message_delta", id: "m", delta: "half" },
      { type: "error", message: "provider failed" },
      { type: "done", stopReason: "error", traceId: "t" },
    ]);
    expect(failed.items.at(-1)).toEqual({
      error: { message: "provider failed", type: "server_error", param: null, code: "agent_run_failed" },
    });
    expect(failed.projection.errors).toEqual(["provider failed"]);
    expect(
      run([
        { type: "message", text: "cut" },
        { type: "done", stopReason: "max_tokens", traceId: "t" },
      ]).projection.completion().choices[0].finish_reason,
    ).toBe("length");
    expect(
      run([
        { type: "message", text: "no" },
        { type: "done", stopReason: "refusal", traceId: "t" },
      ]).projection.completion().choices[0].finish_reason,
    ).toBe("content_filter");
  });

  it("closes a source that ended without done", () => {
    const { items } = run([{ type: "message_delta", id: "m", delta: "hi" }]);
    expect(items.at(-2).choices[0].finish_reason).toBe("stop");
  });
});
