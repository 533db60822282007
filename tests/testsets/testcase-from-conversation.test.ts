import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { testcaseFromConversation } from "@/components/testsets/testcase-from-conversation";

const message = (id: string, role: UIMessage["role"], ...texts: string[]): UIMessage => ({
  id,
  role,
  parts: [{ type: "step-start" }, ...texts.map((text) => ({ type: "text" as const, text }))],
});

describe("testcaseFromConversation", () => {
  it("makes a first turn an input and the answer's text the expected answer", () => {
    const turn = [message("1", "user", "What is 2+2?"), message("2", "assistant", "It is", "4.")];
    expect(testcaseFromConversation(turn)).toEqual({ input: "What is 2+2?", correct_answer: "It is\n\n4." });
  });

  it("keeps the conversation before a later turn as messages", () => {
    const chat = [
      message("1", "user", "Hi"),
      message("2", "assistant", "Hello"),
      message("3", "user", "Capital of France?"),
      message("4", "assistant", "Paris"),
    ];
    expect(testcaseFromConversation(chat)).toEqual({
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Capital of France?" },
      ],
      correct_answer: "Paris",
    });
    expect(testcaseFromConversation(chat, 1)).toEqual({ input: "Hi", correct_answer: "Hello" });
  });

  it("leaves the answer empty before the agent replied, and gives nothing without a user message", () => {
    expect(testcaseFromConversation([message("1", "user", "Hi")])).toEqual({ input: "Hi", correct_answer: "" });
    expect(testcaseFromConversation([message("1", "assistant", "Hello")])).toBeNull();
  });
});
