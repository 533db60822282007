import { expect, it } from "vitest";
import { foldBatch } from "./batch-fold";
import type { NativeEvent } from "./native-event";

const done = (stopReason: string): NativeEvent => ({ type: "done", stopReason, traceId: "t" });

it("folds deltas by id, refreshes a repeated tool_call in place, and keeps reasoning, usage, data and files out", () => {
  const events: NativeEvent[] = [
    { type: "thought", text: "hidden" },
    { type: "message_start", id: "msg-0" },
    { type: "message_delta", id: "msg-0", delta: "let me " },
    { type: "message_delta", id: "msg-0", delta: "check" },
    { type: "message_end", id: "msg-0" },
    { type: "tool_call", id: "t1", name: "search", input: {} },
    { type: "tool_call", id: "t1", name: "search", input: { q: "y" }, rawInput: { q: "x" } },
    { type: "tool_result", id: "t1", output: "42" },
    { type: "data", name: "d", data: 1 },
    { type: "file", url: "u", mediaType: "image/png" },
    { type: "message", text: "the answer is 42" },
    { type: "usage", input: 1, output: 1, total: 2 },
    done("end_turn"),
  ];
  expect(foldBatch(events)).toEqual({
    messages: [
      { role: "assistant", content: "let me check" },
      { role: "tool", content: "", tool_call_id: "t1", tool_name: "search", input: { q: "x" } },
      { role: "tool", content: "42", tool_call_id: "t1", is_error: false },
      { role: "assistant", content: "the answer is 42" },
    ],
    stop_reason: "end_turn",
  });
  expect(foldBatch(events, { trim: true }).messages).toEqual([{ role: "assistant", content: "the answer is 42" }]);
});

it("adds pending_interaction with the derived tool when paused, and lists errors", () => {
  const paused = foldBatch([
    { type: "tool_call", id: "c1", name: "pick", input: { a: 1 } },
    { type: "interaction_request", id: "c1", kind: "client_tool", payload: { toolCallId: "c1" } },
    done("paused"),
  ]);
  expect(paused.pending_interaction).toEqual({
    id: "c1",
    kind: "client_tool",
    payload: { toolCallId: "c1" },
    tool: { tool_call_id: "c1", tool_name: "pick", input: { a: 1 } },
  });
  const failed = foldBatch([{ type: "error", message: "nope" }, done("error")]);
  expect(failed).toEqual({ messages: [], stop_reason: "error", errors: ["nope"] });
  expect(foldBatch([{ type: "tool_result", id: "x", output: { e: 1 }, isError: true }]).messages).toEqual([
    { role: "tool", content: { e: 1 }, tool_call_id: "x", is_error: true },
  ]);
});
