import { randomUUID } from "node:crypto";
import { processWide } from "@/server/core/process-wide";
import type { Database } from "@/server/db";

/** This process's name on the leases it holds. */
export const PROCESS_LEASE_OWNER = `${process.pid}-${randomUUID().slice(0, 8)}`;

/** The runs this process drives, by id: how a cancel that arrives here stops one at once. */
export const liveRunsOf = processWide<Database, Map<string, (reason: string) => void>>(
  "agent-live-runs",
  () => new Map(),
);

/**
 * The runs this process drives, by `projectId/sessionId`, as "write the run's row now": a run's
 * row waits for its first event batch (up to 50 ms), so a chat reconnect arriving here first
 * makes it written before it looks for the session's running turn.
 */
export const liveSessionsOf = processWide<Database, Map<string, () => Promise<void>>>(
  "agent-live-sessions",
  () => new Map(),
);

export const liveSessionKey = (projectId: string, sessionId: string) => `${projectId}/${sessionId}`;
