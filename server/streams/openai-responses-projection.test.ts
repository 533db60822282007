import { describe, expect, it } from "vitest";
import type { NativeEvent } from "./native-event";
import { OpenAiResponsesProjection } from "./openai-responses-projection";

const options = { id: "resp_abc", model: "greeter", createdAt: 1700000000, previousResponseId: null };
const run = (events: NativeEvent[]) => {
  const projection = new OpenAiResponsesProjection(options);
  const items = [...events.flatMap((event) => projection.push(event)), ...projection.end()];
  return { projection, items: items as any[] };
};

describe("OpenAiResponsesProjection", () => {
  it("one message item per text block and a function_call item per paused client call, numbered in sequence", () => {
    const { projection, items } = run([
      { type: "message_start", id: "msg-0" },
      { type: "message_delta", id: "msg-0", delta: "Let " },
      { type: "message_delta", id: "msg-0", delta: "me ask." },
      { type: "message_end", id: "msg-0" },
      {
        type: "interaction_request",
        id: "c1",
        kind: "client_tool",
        payload: { toolCallId: "c1", toolName: "pick", input: { n: 1 } },
      },
      { type: "usage", input: 3, output: 4, total: 7 },
      { type: "done", stopReason: "paused", traceId: "t" },
    ]);
    expect(items.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(items.map((e) => e.sequence_number)).toEqual(items.map((_, i) => i));
    expect(items[0].response).toMatchObject({ status: "in_progress", output: [] });
    expect(items[2].item).toEqual({
      type: "message",
      id: "msg_abc_0",
      status: "in_progress",
      role: "assistant",
      content: [],
    });
    const final = projection.response();
    expect(items.at(-1).response).toEqual(final);
    expect(final).toMatchObject({
      id: "resp_abc",
      status: "completed",
      output: [
        {
          type: "message",
          id: "msg_abc_0",
          status: "completed",
          content: [{ type: "output_text", text: "Let me ask.", annotations: [] }],
        },
        {
          type: "function_call",
          id: "fc_abc_1",
          call_id: "c1",
          name: "pick",
          arguments: '{"n":1}',
          status: "completed",
        },
      ],
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
    });
  });

  it("a run error streams error then response.failed; a length stop is incomplete", () => {
    const failed = run([
      { type: "message_delta", id: "m", delta: "half" },
      { type: "error", message: "boom" },
      { type: "done", stopReason: "error", traceId: "t" },
    ]);
    expect(failed.items.slice(-5).map((e) => e.type)).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "error",
      "response.failed",
    ]);
    expect(failed.projection.response()).toMatchObject({
      status: "failed",
      error: { code: "server_error", message: "boom" },
    });
    const cut = run([
      { type: "message", text: "cut" },
      { type: "done", stopReason: "max_tokens", traceId: "t" },
    ]);
    expect(cut.projection.response()).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    expect(cut.items.at(-1).type).toBe("response.incomplete");
  });
});
