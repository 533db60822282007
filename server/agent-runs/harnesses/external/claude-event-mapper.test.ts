import { describe, expect, it } from "vitest";
import { DENIED_BY_USER } from "../../permissions";
import { ClaudeEventMapper } from "./claude-event-mapper";

const stream = (event: object) => ({ type: "stream_event", event });
const context = (over: Partial<ConstructorParameters<typeof ClaudeEventMapper>[0]> = {}) => ({
  render: (name: string) => (name === "double" ? { icon: "x2" } : undefined),
  output: (id: string) => (id === "toolu_1" ? { output: { result: 42 }, isError: false } : undefined),
  denied: (id: string) => id === "toolu_denied",
  fromClient: (id: string) => id === "toolu_client",
  ...over,
});

describe("ClaudeEventMapper", () => {
  it("maps partial stream events to native blocks and tool calls, results and the turn's end", () => {
    const mapper = new ClaudeEventMapper(context());
    const events = [
      stream({ type: "message_start", message: { usage: { input_tokens: 12 } } }),
      stream({ type: "content_block_start", index: 0, content_block: { type: "thinking" } }),
      stream({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } }),
      stream({ type: "content_block_stop", index: 0 }),
      stream({ type: "content_block_start", index: 1, content_block: { type: "text" } }),
      stream({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Let me " } }),
      stream({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "double." } }),
      stream({ type: "content_block_stop", index: 1 }),
      stream({
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_1", name: "mcp__agenta-tools__double" },
      }),
      stream({ type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"n":' } }),
      stream({ type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "21}" } }),
      stream({ type: "content_block_stop", index: 2 }),
      stream({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 7 } }),
      { type: "assistant", message: { content: [{ type: "text", text: "Let me double." }] } },
      {
        type: "user",
        message: {
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: '{"result":42}' }] },
          ],
        },
      },
      {
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: "toolu_denied", is_error: true, content: "denied" }] },
      },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "toolu_client", content: "blue" }] } },
      {
        type: "user",
        message: {
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_other",
              is_error: true,
              content: [{ type: "text", text: "boom" }],
            },
          ],
        },
      },
    ].flatMap((message) => mapper.map(message).events);
    expect(events).toEqual([
      { type: "thought_start", id: "reason-0" },
      { type: "thought_delta", id: "reason-0", delta: "hmm" },
      { type: "thought_end", id: "reason-0" },
      { type: "message_start", id: "msg-1" },
      { type: "message_delta", id: "msg-1", delta: "Let me " },
      { type: "message_delta", id: "msg-1", delta: "double." },
      { type: "message_end", id: "msg-1" },
      { type: "tool_call", id: "toolu_1", name: "double", input: {}, render: { icon: "x2" } },
      { type: "tool_call", id: "toolu_1", name: "double", input: { n: 21 }, render: { icon: "x2" } },
      { type: "tool_result", id: "toolu_1", output: { result: 42 }, isError: false },
      { type: "tool_result", id: "toolu_denied", output: DENIED_BY_USER, denied: true },
      { type: "tool_result", id: "toolu_other", output: "boom", isError: true },
    ]);
    expect(mapper.toolCallIds).toEqual(["toolu_1"]);
    expect(mapper.steps).toMatchObject([
      {
        index: 0,
        finishReason: "tool_use",
        usage: { prompt: 12, completion: 7 },
        text: "Let me double.",
        toolCalls: [{ id: "toolu_1", name: "double", input: { n: 21 } }],
      },
    ]);
    const end = mapper.map({
      type: "result",
      subtype: "success",
      is_error: false,
      stop_reason: "end_turn",
      usage: { input_tokens: 30, output_tokens: 9 },
    }).end;
    expect(end).toEqual({ stopReason: "end_turn", usage: { input: 30, output: 9, total: 39 } });
  });

  it("ends the turn on a rejected credential and on an error result, without quoting the provider", () => {
    const mapper = new ClaudeEventMapper(context());
    expect(mapper.map({ type: "system", subtype: "api_retry", error_status: 401 }).end).toEqual({
      stopReason: "error",
      error: "The model provider rejected the credential (401). Check the key.",
    });
    expect(mapper.map({ type: "system", subtype: "api_retry", error_status: 529 }).end).toBeUndefined();
    const failed = mapper.map({
      type: "result",
      subtype: "success",
      is_error: true,
      api_error_status: 500,
      result: "API Error: 500 {secret body}",
    }).end;
    expect(failed).toEqual({
      stopReason: "error",
      usage: undefined,
      error: "The model provider failed with status 500; retry the turn.",
    });
    expect(mapper.map({ type: "result", subtype: "error_max_turns", is_error: true }).end?.error).toContain(
      "AGENT_MAX_STEPS",
    );
  });
});
