import type { ErrorCode } from "@/server/core/errors";

/**
 * The codes every door that runs an agent's turn answers when preparing the turn refuses it
 * (invoke, the playground, the two OpenAI doors): each route's `errors` lists these and its own.
 */
export const TURN_ERROR_CODES: ErrorCode[] = [
  "connection_mismatch",
  "duplicate_mcp_server",
  "duplicate_skill",
  "duplicate_tool",
  "egress_refused",
  "harness_not_enabled",
  "invalid_messages",
  "invalid_sandbox_extras",
  "missing_agent",
  "missing_connection",
  "no_messages",
  "not_an_agent",
  "sandbox_boundary_unavailable",
  "sandbox_not_enabled",
  "sandbox_not_supported",
  "secret_not_allowed",
  "skills_not_supported",
  "skills_unreadable",
  "unsupported_model",
  "unsupported_provider",
  "unsupported_setting",
  "unsupported_tool",
];
