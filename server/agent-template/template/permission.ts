import { z } from "zod";

/** Per-tool (and per-MCP-server) override of the runner policy. */
export const TOOL_PERMISSIONS = ["allow", "ask", "deny"] as const;
export type ToolPermission = (typeof TOOL_PERMISSIONS)[number];

export function toolPermissionField(description: string) {
  return z.enum(TOOL_PERMISSIONS).nullable().default(null).describe(description);
}
