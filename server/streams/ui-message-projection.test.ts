import { describe, expect, it } from "vitest";
import { checkUiChunks } from "@/tests/helpers/ui-stream-check";
import type { NativeEvent } from "./native-event";
import { UiMessageProjection } from "./ui-message-projection";

const project = (events: NativeEvent[], options = { messageId: "m1", sessionId: "s1" }) => {
  const projection = new UiMessageProjection(options);
  return [...events.flatMap((e) => projection.push(e)), ...projection.end()];
};

const done = (stopReason = "end_turn"): NativeEvent => ({ type: "done", stopReason, traceId: "t".repeat(32) });

describe("UI Message Stream projection", () => {
  it("projects a plain reply, with usage and traceId on finish, and the reader reassembles it", async () => {
    const chunks = project([
      { type: "message_start", id: "msg-0" },
      { type: "message_delta", id: "msg-0", delta: "Hel" },
      { type: "message_delta", id: "msg-0", delta: "lo" },
      { type: "message_end", id: "msg-0" },
      { type: "usage", input: 3, output: 2, total: 5, cost: 0.001 },
      done(),
    ]);
    expect(chunks).toEqual([
      { type: "start", messageId: "m1", messageMetadata: { sessionId: "s1" } },
      { type: "start-step" },
      { type: "text-start", id: "msg-0" },
      { type: "text-delta", id: "msg-0", delta: "Hel" },
      { type: "text-delta", id: "msg-0", delta: "lo" },
      { type: "text-end", id: "msg-0" },
      { type: "finish-step" },
      {
        type: "finish",
        finishReason: "stop",
        messageMetadata: { usage: { input: 3, output: 2, total: 5, cost: 0.001 }, traceId: "t".repeat(32) },
      },
    ]);
    const message = await checkUiChunks(chunks);
    expect(message.parts.filter((p) => p.type === "text")).toEqual([{ type: "text", text: "Hello", state: "done" }]);
  });

  it("announces a tool once, refreshes its input, and ends a client-tool pause with finishReason other", async () => {
    const chunks = project([
      { type: "tool_call", id: "c1", name: "pick", input: {} },
      { type: "tool_call", id: "c1", name: "pick", input: { a: 1 }, rawInput: { a: 2 } },
      {
        type: "interaction_request",
        id: "c1",
        kind: "client_tool",
        payload: { toolCallId: "c1", toolName: "pick", input: { a: 2 } },
      },
      done("paused"),
    ]);
    expect(chunks.filter((c) => c.type === "tool-input-start")).toHaveLength(1);
    expect(chunks.filter((c) => c.type === "tool-input-available").at(-1)).toMatchObject({ input: { a: 2 } });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "other" });
    const message = await checkUiChunks(chunks);
    expect(message.parts.at(-1)).toMatchObject({
      type: "tool-pick",
      toolCallId: "c1",
      state: "input-available",
      input: { a: 2 },
    });
  });

  it("maps tool results, errors and denials, approvals, user input, data, files and renders", async () => {
    const chunks = project([
      { type: "tool_call", id: "a", name: "x", input: {}, render: { kind: "card" } },
      { type: "tool_result", id: "a", output: { ok: true } },
      { type: "tool_call", id: "b", name: "x", input: {} },
      { type: "tool_result", id: "b", output: "boom", isError: true },
      { type: "tool_call", id: "c", name: "x", input: {} },
      { type: "interaction_request", id: "ap-1", kind: "user_approval", payload: { toolCallId: "c" } },
      { type: "interaction_request", id: "in-1", kind: "user_input", payload: { question: "?" } },
      { type: "interaction_response", id: "ap-0", kind: "user_approval", payload: { approved: true } },
      { type: "data", name: "progress", data: { n: 1 }, transient: true },
      { type: "file", url: "https://example.com/a.png", mediaType: "image/png" },
      done("paused"),
    ]);
    const types = chunks.map((c) => c.type);
    expect(types).toContain("tool-output-available");
    expect(chunks.find((c) => c.type === "tool-output-error")).toEqual({
      type: "tool-output-error",
      toolCallId: "b",
      errorText: "boom",
    });
    expect(chunks.find((c) => c.type === "tool-approval-request")).toEqual({
      type: "tool-approval-request",
      approvalId: "ap-1",
      toolCallId: "c",
    });
    expect(chunks.find((c) => c.type === "data-input-request")).toEqual({
      type: "data-input-request",
      id: "in-1",
      data: { question: "?" },
    });
    expect(chunks.find((c) => c.type === "data-render")).toEqual({
      type: "data-render",
      data: { toolCallId: "a", render: { kind: "card" } },
    });
    expect(chunks.find((c) => c.type === "data-progress")).toEqual({
      type: "data-progress",
      data: { n: 1 },
      transient: true,
    });
    await checkUiChunks(chunks);
    const denied = project([
      { type: "tool_call", id: "d", name: "x", input: {} },
      { type: "tool_result", id: "d", denied: true },
      done(),
    ]);
    expect(denied.find((c) => c.type === "tool-output-denied")).toEqual({
      type: "tool-output-denied",
      toolCallId: "d",
    });
  });

  it("closes open blocks and the turn on an error, and a source that stops without done still terminates", async () => {
    const failed = project([
      { type: "thought_start", id: "reason-0" },
      { type: "thought_delta", id: "reason-0", delta: "hm" },
      { type: "message_delta", id: "msg-1", delta: "par" },
      { type: "error", message: "the provider failed" },
      done("error"),
    ]);
    expect(failed.slice(-6)).toEqual([
      { type: "data-agent-error", data: { code: "runner_error", errorText: "the provider failed" } },
      { type: "error", errorText: "the provider failed" },
      { type: "text-end", id: "msg-1" },
      { type: "reasoning-end", id: "reason-0" },
      { type: "finish-step" },
      { type: "finish", finishReason: "error", messageMetadata: { traceId: "t".repeat(32) } },
    ]);
    await checkUiChunks(failed, ["the provider failed"]);
    const cut = project([{ type: "message_delta", id: "msg-0", delta: "x" }]);
    expect(cut.slice(-5).map((c) => c.type)).toEqual([
      "data-agent-error",
      "error",
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(cut.at(-5)).toMatchObject({ data: { code: "agent_run_failed" } });
    expect(project([]).map((c) => c.type)).toEqual([
      "start",
      "start-step",
      "data-agent-error",
      "error",
      "finish-step",
      "finish",
    ]);
  });

  it("maps raw stop reasons through the finishReason table (unknown becomes other, which the SDK accepts)", () => {
    const reason = (raw: string) => project([done(raw)]).at(-1);
    expect(reason("max_tokens")).toMatchObject({ finishReason: "length" });
    expect(reason("tool_use")).toMatchObject({ finishReason: "tool-calls" });
    expect(reason("refusal")).toMatchObject({ finishReason: "content-filter" });
    expect(reason("cancelled")).toMatchObject({ finishReason: "other" });
    expect(reason("weird")).toMatchObject({ finishReason: "other" });
  });
});
