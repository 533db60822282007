import { describe, expect, it } from "vitest";
import type { NativeMessage } from "@/server/streams";
import { continuation, fingerprintOf, historyItems } from "./history-fingerprint";

const user = (text: string): NativeMessage => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string, ...calls: string[]): NativeMessage => ({
  role: "assistant",
  content: [
    { type: "text", text },
    ...calls.map((id) => ({ type: "tool_call" as const, toolCallId: id, toolName: "t", input: {} })),
  ],
});

describe("history fingerprint", () => {
  const turn1 = [user("hi")];
  const parked = fingerprintOf([...historyItems(turn1), "t:call_1"]);

  it("keeps user texts and tool-call ids in order, each call once, and leaves assistant text out", () => {
    expect(
      historyItems([
        user("a"),
        assistant("prose", "c1"),
        { role: "tool", content: [{ type: "tool_result", toolCallId: "c1", output: 1 }] },
        assistant("again", "c1", "c2"),
        user("b"),
      ]),
    ).toEqual(["u:a", "t:c1", "t:c2", "u:b"]);
  });

  it("continues warm with the new user texts when the history goes on", () => {
    const next = [...turn1, assistant("whatever the client rendered", "call_1"), user("and now?")];
    expect(continuation(parked, historyItems(next))).toEqual(["and now?"]);
  });

  it("continues with nothing new (an approval answer) when the history is the same", () => {
    expect(continuation(parked, historyItems([...turn1, assistant("", "call_1")]))).toEqual([]);
  });

  it.each([
    ["an edited user message", [user("hello"), assistant("", "call_1"), user("and now?")]],
    ["a dropped tool call", [...[user("hi")], assistant("no calls"), user("and now?")]],
    ["a tool call the session never made", [user("hi"), assistant("", "call_1", "call_9"), user("and now?")]],
    ["a cut history", [user("and now?")]],
  ])("starts cold after %s", (_name, messages) => {
    expect(continuation(parked, historyItems(messages))).toBeUndefined();
  });
});
