import { and, desc, eq, lte, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { canaries } from "@/server/db/schema";
import type { SplitEndHandler } from "@/server/domains";

export type CanaryRow = typeof canaries.$inferSelect;
export type CanaryStatus = "running" | "promoted" | "rolled_back" | "replaced";

/** A running canary of the caller's project, locked for the change at hand; 404 or 409 otherwise. */
export async function lockRunningCanary(tx: Executor, projectId: string, id: string): Promise<CanaryRow> {
  const [row] = await tx
    .select()
    .from(canaries)
    .where(and(eq(canaries.projectId, projectId), eq(canaries.id, id)))
    .for("update");
  if (!row) throw new NotFoundError(`canary ${id} not found`);
  if (row.status !== "running")
    throw new ConflictError(`canary ${id} has ended (${row.status}); start a new one`, "canary_ended");
  return row;
}

export async function getCanary(db: Executor, projectId: string, id: string): Promise<CanaryRow> {
  const [row] = await db
    .select()
    .from(canaries)
    .where(and(eq(canaries.projectId, projectId), eq(canaries.id, id)));
  if (!row) throw new NotFoundError(`canary ${id} not found`);
  return row;
}

/** A project's canaries, newest first; of one environment, or running only, when asked. */
export async function listCanaries(
  db: Executor,
  projectId: string,
  filter: { environmentId?: string; status?: CanaryStatus; limit?: number },
): Promise<CanaryRow[]> {
  return db
    .select()
    .from(canaries)
    .where(
      and(
        eq(canaries.projectId, projectId),
        filter.environmentId ? eq(canaries.environmentId, filter.environmentId) : undefined,
        filter.status ? eq(canaries.status, filter.status) : undefined,
      ),
    )
    .orderBy(desc(canaries.id))
    .limit(filter.limit ?? 100);
}

/** The running canary of a key, if any. */
export async function runningCanaryOf(
  db: Executor,
  environmentVariantId: string,
  key: string,
): Promise<CanaryRow | undefined> {
  const [row] = await db
    .select()
    .from(canaries)
    .where(
      and(
        eq(canaries.environmentVariantId, environmentVariantId),
        eq(canaries.key, key),
        eq(canaries.status, "running"),
      ),
    );
  return row;
}

/** Running canaries whose next ramp step is due, claimed (another worker skips them). */
export async function claimDueCanaries(tx: Executor, now: Date, limit: number): Promise<CanaryRow[]> {
  return tx
    .select()
    .from(canaries)
    .where(and(eq(canaries.status, "running"), lte(canaries.nextStepAt, now)))
    .orderBy(canaries.nextStepAt)
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Running canaries with a guard to check. */
export async function guardedCanaries(db: Executor, limit: number): Promise<CanaryRow[]> {
  return db
    .select()
    .from(canaries)
    .where(and(eq(canaries.status, "running"), sql`${canaries.guards} <> '{}'::jsonb`))
    .orderBy(canaries.id)
    .limit(limit);
}

/** A key's split ended by a commit that was not the canary's own: the canary ends with it. */
export async function markReplaced(tx: Executor, environmentVariantId: string, key: string, now: Date): Promise<void> {
  await tx
    .update(canaries)
    .set({ status: "replaced", reason: "a deploy of the key replaced the split", endedAt: now, nextStepAt: null })
    .where(
      and(
        eq(canaries.environmentVariantId, environmentVariantId),
        eq(canaries.key, key),
        eq(canaries.status, "running"),
      ),
    );
}

/**
 * The environments' split-end handler (server/domains/environments/split-ends.ts), which the
 * composition root passes in: a commit that ends a key's split ends its running canary, in the
 * commit's transaction, at the app's clock.
 */
export function endCanaryWithSplit(now: () => Date): SplitEndHandler {
  return (tx, ended) => markReplaced(tx, ended.variantId, ended.key, now());
}
