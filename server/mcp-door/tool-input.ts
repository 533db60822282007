import { z } from "zod";
import { invokeRequestSchema } from "@/server/agent-runs";

/**
 * A tool call's arguments: the message, and the agent session to continue (a new one when absent):
 * as invoke's `session_id`, the session's workspace and approvals, not a replay of its messages.
 */
export const toolArguments = z.strictObject({
  message: z.string().min(1, "message: the text to send the agent").max(200_000),
  // invoke's own rule for a session id.
  session_id: invokeRequestSchema.shape.session_id,
});
export type ToolArguments = z.infer<typeof toolArguments>;

/** The tool's input schema as JSON Schema (MCP's `inputSchema`). */
export const TOOL_INPUT_SCHEMA = {
  type: "object" as const,
  properties: {
    message: { type: "string", description: "What to ask or tell the agent" },
    session_id: {
      type: "string",
      description:
        "Continue in the agent session a previous call returned (its workspace and approvals); the message should carry the context it needs",
    },
  },
  required: ["message"],
  additionalProperties: false,
};

/** The tool's structured output (MCP's `outputSchema`). */
export const TOOL_OUTPUT_SCHEMA = {
  type: "object" as const,
  properties: {
    text: { type: "string", description: "The agent's final text" },
    status: { type: "string", enum: ["finished", "failed", "cancelled", "needs_approval"] },
    run_id: { type: "string", description: "The run: GET /services/agent/v0/runs/{run_id}" },
    session_id: { type: "string", description: "The agent session: send it back to continue in it" },
    revision_id: { type: "string", description: "The agent revision that served the call" },
    version: { type: "string" },
    approval_url: { type: "string", description: "Where to approve the paused run in the playground" },
  },
  required: ["text", "status", "run_id", "session_id"],
};
