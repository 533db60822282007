import { describe, expect, it } from "vitest";
import type { NativeEvent } from "@/server/streams";
import { fromLogEntries, toLogEntries } from "./log-entries";

const delta = (id: string, text: string, type: "message_delta" | "thought_delta" = "message_delta"): NativeEvent => ({
  type,
  id,
  delta: text,
});

/** Stored as JSON and read back, as the log does. */
const roundTrip = (events: NativeEvent[], seq = 1) =>
  fromLogEntries(seq, JSON.parse(JSON.stringify(toLogEntries(events))) as ReturnType<typeof toLogEntries>);

describe("log entries", () => {
  const turn: NativeEvent[] = [
    { type: "thought_start", id: "r-0" },
    delta("r-0", "let me ", "thought_delta"),
    delta("r-0", "think", "thought_delta"),
    { type: "thought_end", id: "r-0" },
    { type: "message_start", id: "msg-0" },
    delta("msg-0", "Hel"),
    delta("msg-0", "lo"),
    delta("msg-0", ""),
    delta("msg-0", " world"),
    { type: "message_start", id: "msg-1" },
    delta("msg-1", "a"),
    delta("msg-0", "!"),
    delta("msg-0", "?"),
    { type: "message_end", id: "msg-0" },
    delta("msg-1", "lone"),
    { type: "message_end", id: "msg-1" },
    { type: "done", stopReason: "end_turn", traceId: "t" },
  ];

  it("stores consecutive deltas of one block as one entry and gives every event back with its own seq", () => {
    const entries = toLogEntries(turn);
    expect(entries).toEqual([
      { type: "thought_start", id: "r-0" },
      { type: "thought_delta", id: "r-0", deltas: ["let me ", "think"] },
      { type: "thought_end", id: "r-0" },
      { type: "message_start", id: "msg-0" },
      { type: "message_delta", id: "msg-0", deltas: ["Hel", "lo", "", " world"] },
      { type: "message_start", id: "msg-1" },
      delta("msg-1", "a"),
      { type: "message_delta", id: "msg-0", deltas: ["!", "?"] },
      { type: "message_end", id: "msg-0" },
      delta("msg-1", "lone"),
      { type: "message_end", id: "msg-1" },
      { type: "done", stopReason: "end_turn", traceId: "t" },
    ]);
    expect(roundTrip(turn, 41)).toEqual(turn.map((event, i) => ({ seq: 41 + i, event })));
  });

  it("keeps a delta that carries anything else, or its keys in another order, as it is", () => {
    const odd = [
      delta("msg-0", "a"),
      { type: "message_delta", id: "msg-0", delta: "b", extra: 1 } as unknown as NativeEvent,
      { type: "message_delta", delta: "c", id: "msg-0" } as NativeEvent,
      delta("msg-0", "d"),
    ];
    expect(toLogEntries(odd)).toHaveLength(4);
    const back = roundTrip(odd).map((entry) => entry.event);
    expect(back).toEqual(odd);
    expect(back.map((event) => JSON.stringify(event))).toEqual(odd.map((event) => JSON.stringify(event)));
  });

  it("a batch of one event, or of none, is stored as it is", () => {
    expect(toLogEntries([delta("m", "x")])).toEqual([delta("m", "x")]);
    expect(toLogEntries([])).toEqual([]);
  });
});
