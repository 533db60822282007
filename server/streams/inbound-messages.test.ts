import { expect, it } from "vitest";
import { readInboundMessages } from "./inbound-messages";

it("reads native messages: bare strings, camelCase or snake_case blocks, role-less messages dropped", () => {
  expect(
    readInboundMessages(
      [
        { role: "user", content: "hi" },
        { content: "no role" },
        {
          role: "assistant",
          content: [
            { type: "tool_call", tool_call_id: "c1", tool_name: "pick", input: { a: 1 } },
            { type: "tool_result", toolCallId: "c1", output: "ok", is_error: false, mime_type: null },
          ],
        },
      ],
      "native",
    ),
  ).toEqual([
    { role: "user", content: [{ type: "text", text: "hi" }] },
    {
      role: "assistant",
      content: [
        { type: "tool_call", toolCallId: "c1", toolName: "pick", input: { a: 1 } },
        { type: "tool_result", toolCallId: "c1", output: "ok", isError: false },
      ],
    },
  ]);
  expect(() => readInboundMessages([{ role: "user", content: [{ type: "video" }] }], "native")).toThrow(
    /data\.inputs\.messages\[0\]\.content\[0\]\.type/,
  );
  expect(() => readInboundMessages([{ role: "user", content: 3 }], "native")).toThrow(
    /data\.inputs\.messages\[0\]\.content/,
  );
});

it("converts UI messages with every part and tool state row of the interface contract", () => {
  const [user, assistant] = readInboundMessages(
    [
      {
        id: "u1",
        role: "user",
        parts: [
          { type: "text", text: "look" },
          { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
          { type: "file", mediaType: "application/pdf", url: "https://example.com/a.pdf" },
          { type: "reasoning", text: "dropped" },
        ],
      },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "tool-done", toolCallId: "1", state: "output-available", input: { q: 1 }, output: { r: 2 } },
          { type: "tool-bad", toolCallId: "2", state: "output-error", input: {}, errorText: "boom" },
          { type: "tool-no", toolCallId: "3", state: "output-denied", input: {} },
          {
            type: "tool-gate",
            toolCallId: "4",
            state: "approval-responded",
            input: { c: "ls" },
            approval: { id: "ap-4", approved: true },
          },
          { type: "dynamic-tool", toolName: "dyn", toolCallId: "5", state: "input-available", input: { z: 1 } },
          { type: "tool-approval-request", approvalId: "x", toolCallId: "4" },
          { type: "tool-approval-response", approvalId: "ap-6", toolCallId: "6", approved: false },
          { type: "tool-output-available", toolCallId: "7", output: 7 },
          { type: "tool-output-error", toolCallId: "8", errorText: "e" },
          { type: "tool-output-denied", toolCallId: "9" },
          { type: "step-start" },
        ],
      },
      { role: "user", parts: [], content: "fallback" },
    ],
    "ui_sdk",
  );
  expect(user.content).toEqual([
    { type: "text", text: "look" },
    { type: "image", mimeType: "image/png", data: "AAAA" },
    { type: "resource", mimeType: "application/pdf", uri: "https://example.com/a.pdf" },
  ]);
  expect(assistant.content).toEqual([
    { type: "tool_call", toolCallId: "1", toolName: "done", input: { q: 1 } },
    { type: "tool_result", toolCallId: "1", toolName: "done", output: { r: 2 }, isError: false },
    { type: "tool_call", toolCallId: "2", toolName: "bad", input: {} },
    { type: "tool_result", toolCallId: "2", toolName: "bad", output: "boom", isError: true },
    { type: "tool_call", toolCallId: "3", toolName: "no", input: {} },
    { type: "tool_result", toolCallId: "3", toolName: "no", approved: false, output: { approved: false } },
    { type: "tool_call", toolCallId: "4", toolName: "gate", input: { c: "ls" } },
    {
      type: "tool_result",
      toolCallId: "4",
      toolName: "gate",
      approved: true,
      interactionToken: "ap-4",
      output: { approved: true, interactionToken: "ap-4" },
    },
    { type: "tool_call", toolCallId: "5", toolName: "dyn", input: { z: 1 } },
    {
      type: "tool_result",
      toolCallId: "6",
      approved: false,
      interactionToken: "ap-6",
      output: { approved: false, interactionToken: "ap-6" },
    },
    { type: "tool_result", toolCallId: "7", output: 7, isError: false },
    { type: "tool_result", toolCallId: "8", output: "e", isError: true },
    { type: "tool_result", toolCallId: "9", approved: false, output: { approved: false } },
  ]);
  expect(readInboundMessages([{ role: "user", parts: [], content: "fallback" }], "ui_sdk")).toEqual([
    { role: "user", content: [{ type: "text", text: "fallback" }] },
  ]);
});
