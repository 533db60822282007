import { createHash } from "node:crypto";

/**
 * The `execute_tool` span id of one tool call, derived from the trace and the call id. The span
 * is written after the run ends, but a reference tool's nested run starts while the call is
 * running and must name it as its parent; deriving the id lets both sides agree without passing
 * state through the model loop.
 */
export function toolSpanId(traceId: string, toolCallId: string): string {
  return createHash("sha256").update(`${traceId}:${toolCallId}`).digest("hex").slice(0, 16);
}
