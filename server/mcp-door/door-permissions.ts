import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/server/auth";
import { missingScope } from "@/server/core/key-scopes";
import { hasRole } from "@/server/core/roles";

/**
 * What a caller may do over MCP, as on the REST routes: listing and reading (tools, prompts,
 * resources) needs a viewer with a `read`, `run` or `full` key; calling a tool runs an agent and
 * needs a member with a `run` or `full` key. A refusal is a JSON-RPC error naming what is missing.
 */
export function requireMcpAccess(principal: Principal, action: "list" | "call", method: string): void {
  const runs = action === "call";
  if (runs && !hasRole(principal.role, "member"))
    throw new McpError(
      ErrorCode.InvalidRequest,
      `${method} runs an agent: it needs a member or owner; this user is a ${principal.role}`,
      {
        code: "forbidden",
      },
    );
  if (!principal.keyScopes) return;
  const missing = missingScope(principal.keyScopes, { readsOnly: !runs, keyScope: "run" });
  if (missing)
    throw new McpError(
      ErrorCode.InvalidRequest,
      `${method} needs a key with the ${missing === "run" ? "run agents" : missing} scope (or full); this key has: ${principal.keyScopes.join(", ")}`,
      { code: "missing_scope", needs: missing, has: [...principal.keyScopes] },
    );
}
