import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MASKED_SECRET, maskSecretValues } from "@/server/core/secret-masking";
import { capResult } from "../tools/cap-result";

/**
 * An MCP `tools/call` result as the model's tool result: the text of its content blocks (other
 * blocks named by kind), or its structured content when it has no content; the server's secret
 * header values masked, cut to `maxBytes`. The same text serves `isError` results, which the
 * caller raises as a failed call.
 */
export function mcpToolResultText(
  result: Pick<CallToolResult, "content" | "structuredContent">,
  secrets: string[],
  maxBytes: number,
): string {
  const blocks = (result.content ?? []).map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type}: ${block.mimeType}]`;
      case "resource":
        return "text" in block.resource ? block.resource.text : `[resource: ${block.resource.uri}]`;
      case "resource_link":
        return `[resource link: ${block.uri}]`;
      default:
        return `[${(block as { type: string }).type} content]`;
    }
  });
  const text = blocks.length
    ? blocks.join("\n")
    : result.structuredContent
      ? JSON.stringify(result.structuredContent)
      : "";
  return capResult(maskSecretValues(text, secrets, MASKED_SECRET), maxBytes);
}
