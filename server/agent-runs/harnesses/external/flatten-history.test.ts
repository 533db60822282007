import { describe, expect, it } from "vitest";
import { flattenHistory, HISTORY_WINDOW_CHARS, TOOL_RESULT_CHARS } from "./flatten-history";

describe("flattenHistory", () => {
  it("a single user message is the prompt itself", () => {
    expect(flattenHistory([{ role: "user", content: [{ type: "text", text: "hello" }] }])).toBe("hello");
  });

  it("earlier turns become a labelled transcript, tool results cut, and the last user message the request", () => {
    const prompt = flattenHistory([
      { role: "user", content: [{ type: "text", text: "count the files" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Counting." },
          { type: "tool_call", toolCallId: "c1", toolName: "ls", input: { path: "." } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool_result", toolCallId: "c1", output: "x".repeat(TOOL_RESULT_CHARS + 50) }],
      },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "c2", approved: false }] },
      { role: "user", content: [{ type: "text", text: "thanks, and now?" }] },
    ]);
    expect(prompt).toContain(
      '<transcript>\n[user] count the files\n\n[assistant] Counting.\n[assistant called tool ls (id c1) with {"path":"."}]',
    );
    expect(prompt).toContain(`[tool result for c1: ${"x".repeat(TOOL_RESULT_CHARS)}... [cut]]`);
    expect(prompt).toContain("[tool result for c2: the user denied this call]");
    expect(prompt.endsWith("The user's new message:\nthanks, and now?")).toBe(true);
  });

  it("keeps the newest part of a long history", () => {
    const long = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: [{ type: "text" as const, text: `${i}:${"y".repeat(5_000)}` }],
    }));
    const prompt = flattenHistory([...long, { role: "user", content: [{ type: "text", text: "last" }] }]);
    expect(prompt).toContain("[earlier messages omitted]");
    expect(prompt).toContain("29:");
    expect(prompt).not.toContain("[user] 0:");
    expect(prompt.length).toBeLessThan(HISTORY_WINDOW_CHARS + 500);
  });

  it("a history that ends on tool results asks to continue", () => {
    const prompt = flattenHistory([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_call", toolCallId: "c1", toolName: "double", input: { n: 2 } }] },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "c1", output: { result: 4 } }] },
    ]);
    expect(prompt).toContain('[tool result for c1: {"result":4}]');
    expect(prompt).toContain("Continue the conversation");
  });
});
