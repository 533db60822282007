import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { messagesCatalogType } from "./messages-type";

const accepts = new Ajv2020({ allErrors: true }).compile(messagesCatalogType());

describe("messages catalog type", () => {
  it("is an array of messages, draft 2020-12", () => {
    const schema = messagesCatalogType();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.type).toBe("array");
  });

  it.each([
    ["an empty conversation", []],
    [
      "string content",
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
    ],
    [
      "every role",
      ["developer", "system", "user", "assistant", "tool", "function"].map((role) => ({ role, content: "" })),
    ],
    ["a message without content", [{ role: "assistant" }]],
    [
      "every content block",
      [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
            { type: "resource", uri: "https://x.dev/a.pdf", mimeType: "application/pdf" },
          ],
        },
        {
          role: "assistant",
          content: [{ type: "tool_call", toolCallId: "c1", toolName: "read", input: { path: "a" } }],
        },
        {
          role: "tool",
          content: [{ type: "tool_result", toolCallId: "c1", toolName: "read", output: "text", isError: false }],
        },
        { role: "tool", content: [{ type: "tool_result", toolCallId: "c2", approved: true, interactionToken: "t" }] },
      ],
    ],
    [
      "a batch response replayed as history",
      [
        { role: "tool", content: "", tool_call_id: "c1", tool_name: "read", input: { path: "a" } },
        { role: "tool", content: "file text", tool_call_id: "c1", is_error: false },
      ],
    ],
  ])("accepts %s", (_label, messages) => {
    expect(accepts(messages), JSON.stringify(accepts.errors)).toBe(true);
  });

  it.each([
    ["a message without role", [{ content: "hi" }]],
    ["an unknown role", [{ role: "robot", content: "hi" }]],
    ["numeric content", [{ role: "user", content: 1 }]],
    ["an unknown block type", [{ role: "user", content: [{ type: "audio", data: "x" }] }]],
    ["a text block without text", [{ role: "user", content: [{ type: "text" }] }]],
    [
      "snake_case block fields",
      [{ role: "assistant", content: [{ type: "tool_call", tool_call_id: "c", tool_name: "t" }] }],
    ],
    ["an image without data or uri", [{ role: "user", content: [{ type: "image", mimeType: "image/png" }] }]],
    ["a tool call without toolName", [{ role: "assistant", content: [{ type: "tool_call", toolCallId: "c" }] }]],
    [
      "isError that is not a boolean",
      [{ role: "tool", content: [{ type: "tool_result", toolCallId: "c", isError: "no" }] }],
    ],
    ["a bare message object", { role: "user", content: "hi" }],
  ])("rejects %s", (_label, messages) => {
    expect(accepts(messages)).toBe(false);
  });
});
