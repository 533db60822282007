import { newId } from "@/server/core/ids";

/** What the door knows of a client between requests, carried in its `Mcp-Session-Id` (no server state). */
export interface McpSession {
  id: string;
  /** The client declared `elicitation` at initialize: a tool needing approval may ask it. */
  elicitation: boolean;
}

const SESSION = /^([0-9a-f-]{36})(\.e)?$/;

/**
 * A new session's id: a UUIDv7, then `.e` when the client can answer elicitation requests. Any
 * instance reads it back from the header, so no instance keeps sessions in memory; a client that
 * edits its id only changes what it is offered.
 */
export function newMcpSessionId(elicitation: boolean): string {
  return `${newId()}${elicitation ? ".e" : ""}`;
}

export function readMcpSession(header: string | null): McpSession | undefined {
  const match = header ? SESSION.exec(header) : null;
  return match ? { id: header!, elicitation: Boolean(match[2]) } : undefined;
}
