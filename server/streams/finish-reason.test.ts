import { expect, it } from "vitest";
import { toFinishReason } from "./finish-reason";

it("follows the interface contract's finishReason table", () => {
  const table: Record<string, string> = {
    end_turn: "stop",
    stop_sequence: "stop",
    max_tokens: "length",
    tool_use: "tool-calls",
    tool_calls: "tool-calls",
    function_call: "tool-calls",
    refusal: "content-filter",
    content_filter: "content-filter",
    paused: "other",
    cancelled: "other",
    something_new: "unknown",
  };
  for (const [raw, expected] of Object.entries(table)) expect(toFinishReason(raw), raw).toBe(expected);
  for (const value of ["stop", "length", "content-filter", "tool-calls", "error", "other", "unknown"])
    expect(toFinishReason(value)).toBe(value);
});
