import { describe, expect, it } from "vitest";
import { nestedMessages } from "./nested-messages";

describe("a reference tool's arguments as the nested run's messages", () => {
  it("passes a messages list through and wraps any other arguments as one user message of JSON", () => {
    const messages = [{ role: "user", content: "hi" }];
    expect(nestedMessages({ messages })).toBe(messages);
    expect(nestedMessages({ question: "2+2?" })).toEqual([
      { role: "user", content: [{ type: "text", text: '{"question":"2+2?"}' }] },
    ]);
    expect(nestedMessages(undefined)).toEqual([{ role: "user", content: [{ type: "text", text: "{}" }] }]);
  });
});
