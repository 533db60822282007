import { describe, expect, it } from "vitest";
import { foldBatch, type NativeEvent } from "@/server/streams";
import { messagesOfEvents, planTakeover, settledApprovals } from "./takeover-plan";

const call = (id: string, name: string, input: unknown): NativeEvent[] => [
  { type: "tool_call", id, name, input: {} },
  { type: "tool_call", id, name, input },
];

describe("planTakeover", () => {
  it("treats complete calls without a result as interrupted and keeps their step", () => {
    const events: NativeEvent[] = [
      { type: "message_start", id: "msg-0" },
      { type: "message_delta", id: "msg-0", delta: "Let me look." },
      { type: "message_end", id: "msg-0" },
      ...call("c1", "read", { path: "a" }),
      { type: "tool_call", id: "c2", name: "write", input: {} },
    ];
    const plan = planTakeover(events);
    expect(plan.interrupted).toEqual([{ id: "c1", name: "read", input: { path: "a" } }]);
    // c2 was only announced: its tool never started.
    expect(plan.discard).toEqual(["c2"]);
    expect(messagesOfEvents(plan.kept)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_call", toolCallId: "c1", toolName: "read", input: { path: "a" } },
        ],
      },
    ]);
  });

  it("discards a model step in flight after the last result; the fold drops it after the marker", () => {
    const events: NativeEvent[] = [
      ...call("c1", "read", {}),
      { type: "tool_result", id: "c1", output: "x" },
      { type: "thought_start", id: "reason-1" },
      { type: "thought_delta", id: "reason-1", delta: "hm" },
      { type: "message_start", id: "msg-2" },
      { type: "message_delta", id: "msg-2", delta: "Half" },
    ];
    const plan = planTakeover(events);
    expect(plan).toMatchObject({ interrupted: [], discard: ["reason-1", "msg-2"], takeovers: 0 });
    expect(messagesOfEvents(plan.kept)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool_call", toolCallId: "c1", toolName: "read", input: {} },
          { type: "tool_result", toolCallId: "c1", toolName: "read", output: "x", isError: undefined },
        ],
      },
    ]);
    const marker: NativeEvent = { type: "data", name: "run_taken_over", data: { discard: plan.discard } };
    expect(foldBatch([...events, marker, { type: "message", text: "Whole" }]).messages).toEqual([
      { role: "tool", content: "", tool_call_id: "c1", tool_name: "read", input: {} },
      { role: "tool", content: "x", tool_call_id: "c1", is_error: false },
      { role: "assistant", content: "Whole" },
    ]);
  });

  it("counts earlier takeovers; a step after a result starts a new assistant message", () => {
    const events: NativeEvent[] = [
      ...call("c1", "read", {}),
      { type: "tool_result", id: "c1", output: "x" },
      { type: "data", name: "run_taken_over", data: { discard: [] } },
      { type: "message", text: "Done" },
      ...call("c2", "read", {}),
    ];
    const plan = planTakeover(events);
    expect(plan.takeovers).toBe(1);
    expect(messagesOfEvents(plan.kept).map((m) => m.content.map((b) => b.type))).toEqual([
      ["tool_call", "tool_result"],
      ["text", "tool_call"],
    ]);
  });

  it("turns the input's approval answers the log settled into their results; the rest stay answers", () => {
    const answer = (id: string, approved: boolean) => ({
      type: "tool_result" as const,
      toolCallId: id,
      toolName: "write",
      approved,
      interactionToken: `apr_${id}`,
    });
    const messages = [{ role: "tool", content: [answer("w1", true), answer("w2", false), answer("w3", true)] }];
    const settled = settledApprovals(messages, [
      { type: "tool_result", id: "w1", output: "wrote 5 bytes" },
      { type: "tool_result", id: "w2", output: "The user denied this tool call.", denied: true },
    ]);
    expect(settled[0].content).toEqual([
      {
        type: "tool_result",
        toolCallId: "w1",
        toolName: "write",
        approved: true,
        output: "wrote 5 bytes",
        isError: undefined,
      },
      {
        type: "tool_result",
        toolCallId: "w2",
        toolName: "write",
        approved: false,
        output: "The user denied this tool call.",
        isError: undefined,
      },
      // Its result was not logged: the continuation answers it (and the store says whether it still can).
      answer("w3", true),
    ]);
  });
});
