import { describe, expect, it } from "vitest";
import { agentMessages } from "@/server/evaluations/execution/test-input";
import { textInMessagesColumn } from "@/components/testsets/messages-column";

describe("textInMessagesColumn", () => {
  it("counts rows whose messages column holds text, which an agent evaluation would send as JSON", () => {
    const rows = [
      { messages: [{ role: "user", content: "hi" }] },
      { messages: "Hello there" },
      { messages: '[{"role": "user", "content": "hi"}]' },
      { input: "no messages column" },
    ];
    expect(textInMessagesColumn(rows)).toBe(2);
    // What the warning is about: the text row reaches the agent as JSON of its columns.
    expect(agentMessages(rows[1])).toEqual([{ role: "user", content: JSON.stringify({ messages: "Hello there" }) }]);
    expect(agentMessages(rows[0])).toEqual(rows[0].messages);
  });
});
