import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { findEgressRefusal } from "@/server/egress";

/**
 * Why talking to an MCP server failed, in words that are safe to show: a time limit, an egress
 * refusal, an HTTP status or a network error code. The SDK's own message is not used, because
 * it can quote the server's response body, and a server may echo the credentials it was sent.
 */
export function mcpFailureReason(error: unknown, timeoutMs: number, variable: string): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return `it did not answer within ${timeoutMs} ms (${variable})`;
  const refusal = findEgressRefusal(error);
  if (refusal)
    return `this server does not connect to that address (${refusal.reason}); an operator can allow it with EGRESS_ALLOWLIST`;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0)
    return `it answered HTTP ${error.code}`;
  if (error instanceof McpError) return `it answered with MCP error ${error.code}`;
  const code = networkCode(error);
  if (code) return `the connection failed (${code})`;
  return "it did not answer as an MCP server over Streamable HTTP";
}

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
