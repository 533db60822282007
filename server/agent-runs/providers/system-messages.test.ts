import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { systemPromptParts } from "./system-messages";

const user: ModelMessage = { role: "user", content: "hi" };

describe("systemPromptParts", () => {
  it("moves leading system messages after the base prompt into `system`, keeping their order", () => {
    expect(
      systemPromptParts("base", [{ role: "system", content: "a" }, { role: "system", content: "b" }, user]),
    ).toEqual({
      system: [
        { role: "system", content: "base" },
        { role: "system", content: "a" },
        { role: "system", content: "b" },
      ],
      messages: [user],
    });
  });

  it("leaves a conversation without system messages as it is", () => {
    expect(systemPromptParts(undefined, [user])).toEqual({ messages: [user] });
  });

  it("keeps a system message the caller placed mid-conversation where it was, as meant", () => {
    const later: ModelMessage = { role: "system", content: "later" };
    expect(systemPromptParts(undefined, [user, later])).toEqual({
      messages: [user, later],
      allowSystemInMessages: true,
    });
  });
});
