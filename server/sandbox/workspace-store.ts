import { and, eq, lt } from "drizzle-orm";
import type { Database } from "@/server/db";
import { sandboxWorkspaces } from "@/server/db/schema";
import type { SnapshotEntry } from "./workspace-snapshot";

export interface WorkspaceLimits {
  /** Sum of file bytes a workspace may hold; a tool call that grows past it fails. */
  maxBytes: number;
  /** A workspace untouched this long starts empty again and its row is deleted. */
  idleMs: number;
}

/**
 * The stored snapshot of a session's workspace, or [] when there is none or it expired: untouched
 * for `limits.idleMs` by `now` (the app's clock, `context.now()`, as `saveWorkspace` stamps it).
 */
export async function loadWorkspace(
  db: Database,
  projectId: string,
  sessionId: string,
  limits: WorkspaceLimits,
  now: Date = new Date(),
): Promise<SnapshotEntry[]> {
  const expiredBefore = new Date(now.getTime() - limits.idleMs);
  await db
    .delete(sandboxWorkspaces)
    .where(
      and(
        eq(sandboxWorkspaces.projectId, projectId),
        eq(sandboxWorkspaces.sessionId, sessionId),
        lt(sandboxWorkspaces.updatedAt, expiredBefore),
      ),
    );
  const [row] = await db
    .select({ entries: sandboxWorkspaces.entries })
    .from(sandboxWorkspaces)
    .where(and(eq(sandboxWorkspaces.projectId, projectId), eq(sandboxWorkspaces.sessionId, sessionId)));
  return (row?.entries as SnapshotEntry[] | undefined) ?? [];
}

/**
 * Upserts the snapshot, touched at `now` (the clock `loadWorkspace` expires it by); the caller has
 * checked the size cap. Last writer wins for concurrent turns.
 */
export async function saveWorkspace(
  db: Database,
  projectId: string,
  sessionId: string,
  entries: SnapshotEntry[],
  sizeBytes: number,
  now: Date = new Date(),
): Promise<void> {
  await db
    .insert(sandboxWorkspaces)
    .values({ projectId, sessionId, entries, sizeBytes, updatedAt: now })
    .onConflictDoUpdate({
      target: [sandboxWorkspaces.projectId, sandboxWorkspaces.sessionId],
      set: { entries, sizeBytes, updatedAt: now },
    });
}
