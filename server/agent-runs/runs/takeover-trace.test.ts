import { describe, expect, it } from "vitest";
import { RUN_TAKEN_OVER, type NativeEvent } from "@/server/streams";
import { runSpans } from "../run-spans";
import type { RunRecord } from "../run-types";
import { toolSpanId } from "../tool-span-id";
import { interruptedToolMessage, stepsOfLog, wholeRunRecord, type TimedEvent } from "./takeover-trace";

const at = (time: number, ...events: NativeEvent[]): TimedEvent[] => events.map((event) => ({ event, at: time }));
const call = (id: string, name: string, input: unknown): NativeEvent[] => [
  { type: "tool_call", id, name, input: {} },
  { type: "tool_call", id, name, input },
];
const takenOver = (discard: string[], interrupted: string[]): NativeEvent => ({
  type: "data",
  name: RUN_TAKEN_OVER,
  data: { discard, interrupted },
});

describe("stepsOfLog", () => {
  it("times completed steps and tool calls by their batches, and the step in flight as an interrupted model call", () => {
    const { steps, takeovers } = stepsOfLog(
      [
        ...at(1_100, { type: "message_start", id: "msg-0" }, { type: "message_delta", id: "msg-0", delta: "Looking." }),
        ...at(1_200, { type: "message_end", id: "msg-0" }, ...call("c1", "lookup", { id: 42 })),
        ...at(1_500, { type: "tool_result", id: "c1", output: "found" }),
        ...at(1_700, { type: "message_start", id: "msg-1" }, { type: "message_delta", id: "msg-1", delta: "It s" }),
        ...at(9_000, takenOver(["msg-1"], [])),
      ],
      1_000,
    );
    expect(steps).toEqual([
      {
        index: 0,
        startedAt: 1_000,
        endedAt: 1_200,
        text: "Looking.",
        toolCalls: [
          {
            id: "c1",
            name: "lookup",
            input: { id: 42 },
            startedAt: 1_200,
            endedAt: 1_500,
            output: "found",
            isError: false,
          },
        ],
      },
      { index: 1, startedAt: 1_500, endedAt: 9_000, text: "It s", interrupted: true, toolCalls: [] },
    ]);
    expect(takeovers).toEqual([{ at: 9_000, interrupted: [], discarded: ["msg-1"] }]);
  });

  it("ends a running call at the takeover; a read-only call run again gets its own span, keyed apart from the attempt", () => {
    const { steps } = stepsOfLog(
      [
        ...at(1_100, ...call("r", "read", { path: "a" }), ...call("w", "write", { path: "b" })),
        ...at(1_150, { type: "tool_call", id: "x", name: "write", input: {} }),
        ...at(5_000, takenOver(["x"], ["r", "w"])),
        ...at(5_040, { type: "tool_result", id: "r", output: "content of a" }),
        ...at(5_041, { type: "tool_result", id: "w", output: interruptedToolMessage("write"), isError: true }),
      ],
      1_000,
    );
    expect(steps).toHaveLength(1);
    const [r, w, rerun] = steps[0].toolCalls;
    // The call only announced never reached its tool.
    expect(steps[0].toolCalls.map((c) => c.id)).toEqual(["r", "w", "r"]);
    expect(r).toMatchObject({
      startedAt: 1_100,
      endedAt: 5_000,
      interrupted: true,
      isError: true,
      spanKey: "r:interrupted",
    });
    expect(w).toMatchObject({ startedAt: 1_100, endedAt: 5_000, interrupted: true, isError: true });
    expect(w.spanKey).toBeUndefined();
    expect(rerun).toMatchObject({ startedAt: 5_000, endedAt: 5_040, output: "content of a", isError: false });
    expect(rerun.interrupted).toBeUndefined();
    expect(steps[0].interrupted).toBeUndefined();
  });

  it("a process that died before any event leaves one interrupted model call from the run's start", () => {
    const { steps } = stepsOfLog(at(3_000, takenOver([], [])), 1_000);
    expect(steps).toEqual([{ index: 0, startedAt: 1_000, endedAt: 3_000, interrupted: true, toolCalls: [] }]);
  });

  it("reads an earlier takeover's marker and continuation in the log (taken over twice)", () => {
    const { steps, takeovers } = stepsOfLog(
      [
        ...at(1_100, ...call("r", "read", {})),
        ...at(1_300, { type: "tool_result", id: "r", output: "a" }),
        ...at(4_000, takenOver([], [])),
        ...at(
          4_200,
          { type: "message_start", id: "t3-msg-0" },
          { type: "message_delta", id: "t3-msg-0", delta: "Done" },
        ),
        ...at(8_000, takenOver(["t3-msg-0"], [])),
      ],
      1_000,
    );
    expect(steps.map((s) => [s.startedAt, s.endedAt, s.interrupted ?? false])).toEqual([
      [1_000, 1_100, false],
      [1_300, 4_000, true],
      [4_000, 8_000, true],
    ]);
    expect(takeovers.map((t) => t.at)).toEqual([4_000, 8_000]);
  });
});

describe("the whole run's spans", () => {
  it("one root from the run's start, the dead process's steps, the continuation's, the takeover on the root", () => {
    const before = {
      ...stepsOfLog(
        [
          ...at(1_200, ...call("r", "read", { path: "a" })),
          ...at(5_000, takenOver([], ["r"])),
          ...at(5_040, { type: "tool_result", id: "r", output: "content" }),
        ],
        1_000,
      ),
      startedAt: 1_000,
      messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "read a" }] }],
    };
    const turn: RunRecord = {
      projectId: "p",
      agent: { name: "reader" },
      messages: [],
      traceId: "a".repeat(32),
      spanId: "b".repeat(16),
      sessionId: "s",
      provider: "openai",
      model: "gpt-5-mini",
      harness: "service_harness",
      startedAt: 5_050,
      endedAt: 6_000,
      stopReason: "stop",
      steps: [{ index: 0, startedAt: 5_060, endedAt: 5_900, text: "It says content.", toolCalls: [] }],
    };
    const spans = runSpans(wholeRunRecord(turn, before), { captureContent: true });
    const root = spans.find((s) => s.span_id === turn.spanId)!;
    expect(root).toMatchObject({ start_time: 1_000, end_time: 6_000, status_code: "STATUS_CODE_OK" });
    expect(root.attributes).toMatchObject({ "ag.meta.run.takeovers": 1 });
    expect(root.events).toEqual([
      {
        name: "run_taken_over",
        timestamp: 5_000,
        attributes: { "ag.meta.run.interrupted_tool_calls": ["r"], "ag.meta.run.discarded_blocks": [] },
      },
    ]);
    const chats = spans.filter((s) => s.span_name.startsWith("chat"));
    expect(chats.map((s) => [s.start_time, s.end_time, s.status_code])).toEqual([
      [1_000, 1_200, "STATUS_CODE_OK"],
      [5_060, 5_900, "STATUS_CODE_OK"],
    ]);
    // The input messages are the run's, on the first model call.
    expect(chats[0].attributes?.["gen_ai.input.messages"]).toContain("read a");
    const tools = spans.filter((s) => s.span_name === "execute_tool read");
    expect(tools.map((s) => [s.span_id, s.status_code, s.status_message])).toEqual([
      [toolSpanId(turn.traceId, "r:interrupted"), "STATUS_CODE_ERROR", expect.stringMatching(/^interrupted/)],
      [toolSpanId(turn.traceId, "r"), "STATUS_CODE_OK", undefined],
    ]);
    expect(new Set(spans.map((s) => s.span_id)).size).toBe(spans.length);
  });
});
