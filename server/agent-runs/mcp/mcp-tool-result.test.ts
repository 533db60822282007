import { describe, expect, it } from "vitest";
import { mcpToolResultText } from "./mcp-tool-result";

describe("mcpToolResultText", () => {
  it("joins text blocks, names other blocks, masks the server's secrets and caps the size", () => {
    const result = {
      content: [
        { type: "text" as const, text: "token tok-123 seen" },
        { type: "image" as const, data: "AAAA", mimeType: "image/png" },
        { type: "resource_link" as const, uri: "file:///a.txt", name: "a" },
      ],
    };
    expect(mcpToolResultText(result, ["tok-123"], 1000)).toBe(
      "token [secret] seen\n[image: image/png]\n[resource link: file:///a.txt]",
    );
    expect(mcpToolResultText({ content: [{ type: "text", text: "x".repeat(50) }] }, [], 10)).toMatch(
      /^x{10}\n\[result cut: 40 more bytes/,
    );
  });

  it("falls back to structured content, then to an empty text", () => {
    expect(mcpToolResultText({ content: [], structuredContent: { n: 1 } }, [], 100)).toBe('{"n":1}');
    expect(mcpToolResultText({ content: [] }, [], 100)).toBe("");
  });
});
