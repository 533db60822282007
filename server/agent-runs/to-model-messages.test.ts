import { expect, it } from "vitest";
import { toModelMessages } from "./to-model-messages";

it("puts tool calls on the assistant message and their results in a tool message right after", () => {
  expect(
    toModelMessages([
      { role: "developer", content: [{ type: "text", text: "be kind" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "checking" },
          { type: "tool_call", toolCallId: "c1", toolName: "look", input: { q: 1 } },
          { type: "tool_call", toolCallId: "c2", toolName: "gate", input: {} },
          { type: "tool_result", toolCallId: "c1", output: { r: 2 } },
          { type: "tool_result", toolCallId: "c2", approved: false, output: { approved: false } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool_result", toolCallId: "c3", toolName: "x", output: "boom", isError: true }],
      },
    ]),
  ).toEqual([
    { role: "system", content: "be kind" },
    {
      role: "user",
      content: [
        { type: "text", text: "hi" },
        { type: "image", image: "AAAA", mediaType: "image/png" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "checking" },
        { type: "tool-call", toolCallId: "c1", toolName: "look", input: { q: 1 } },
        { type: "tool-call", toolCallId: "c2", toolName: "gate", input: {} },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c1", toolName: "look", output: { type: "json", value: { r: 2 } } },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "gate",
          output: { type: "execution-denied", reason: "The user denied this tool call." },
        },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c3", toolName: "x", output: { type: "error-text", value: "boom" } },
      ],
    },
  ]);
});

it("leaves out a tool call nobody answered, keeping the rest of the message", () => {
  expect(
    toModelMessages([
      {
        role: "assistant",
        content: [
          { type: "text", text: "pick one" },
          { type: "tool_call", toolCallId: "c9", toolName: "pick", input: {} },
        ],
      },
      { role: "user", content: [{ type: "text", text: "never mind, say hi" }] },
    ]),
  ).toEqual([
    { role: "assistant", content: [{ type: "text", text: "pick one" }] },
    { role: "user", content: [{ type: "text", text: "never mind, say hi" }] },
  ]);
});
