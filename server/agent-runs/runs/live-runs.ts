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

/**
 * Writes now the row of every run this process drives (a session runs one turn at a time, so
 * `liveSessionsOf` holds each): once it resolves, those runs are listed and can be read or
 * cancelled by id. For a caller that looks a running run up in the table (the tests) instead of
 * waiting out the first event batch.
 */
export async function liveRunRowsWritten(db: Database): Promise<void> {
  await Promise.all([...liveSessionsOf(db).values()].map((write) => write()));
}

/**
 * Each run this process drives until its end is recorded. On a serverless host nothing may be
 * left running once an answer's after-work settles (the platform freezes the function), so that
 * work waits for these (`drivenRunsEnded`).
 */
const drivenOf = processWide<Database, Set<Promise<void>>>("agent-driven-runs", () => new Set());

/** Counts `drive` among this process's runs until it settles. */
export function trackDrivenRun(db: Database, drive: Promise<void>): void {
  const driven = drivenOf(db);
  const tracked = drive.finally(() => driven.delete(tracked));
  driven.add(tracked);
}

/** Resolves once every run this process drives now has recorded its end (runs started later are not waited for). */
export async function drivenRunsEnded(db: Database): Promise<void> {
  await Promise.allSettled([...drivenOf(db)]);
}
