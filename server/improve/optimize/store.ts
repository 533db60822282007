import { and, asc, desc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { preparedQuery, timestampPlaceholder, type Executor } from "@/server/db";
import { improveCandidates, improveOptimizations } from "@/server/db/schema";
import type { OptimizationStatus } from "./wire";

export type OptimizationRow = typeof improveOptimizations.$inferSelect;
export type CandidateRow = typeof improveCandidates.$inferSelect;

export const ENDED: OptimizationStatus[] = ["succeeded", "failed", "cancelled", "stopped"];
export const isEnded = (status: string) => (ENDED as string[]).includes(status);

/** The row inserted, or undefined when its id is taken (a retried start that names its id). */
export async function insertOptimization(db: Executor, row: typeof improveOptimizations.$inferInsert) {
  const [inserted] = await db.insert(improveOptimizations).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findOptimization(db: Executor, projectId: string, id: string) {
  const [row] = await db
    .select()
    .from(improveOptimizations)
    .where(and(eq(improveOptimizations.projectId, projectId), eq(improveOptimizations.id, id)));
  return row;
}

export async function requireOptimization(db: Executor, projectId: string, id: string): Promise<OptimizationRow> {
  const row = await findOptimization(db, projectId, id);
  if (!row) throw new NotFoundError(`optimization ${id} not found in this project`);
  return row;
}

/** Newest first (ids are time-ordered), a page after `cursor`. */
export async function listOptimizationRows(db: Executor, projectId: string, limit: number, cursor?: string) {
  return db
    .select()
    .from(improveOptimizations)
    .where(and(eq(improveOptimizations.projectId, projectId), cursor ? lt(improveOptimizations.id, cursor) : undefined))
    .orderBy(desc(improveOptimizations.id))
    .limit(limit + 1);
}

export async function candidatesOf(db: Executor, optimizationIds: string[]): Promise<CandidateRow[]> {
  if (!optimizationIds.length) return [];
  return db
    .select()
    .from(improveCandidates)
    .where(inArray(improveCandidates.optimizationId, optimizationIds))
    .orderBy(asc(improveCandidates.round), asc(improveCandidates.idx));
}

export async function updateOptimization(
  db: Executor,
  id: string,
  set: Partial<typeof improveOptimizations.$inferInsert>,
  /** Only while this worker holds the lease: a worker that lost it writes nothing. */
  leaseToken?: string,
): Promise<boolean> {
  const rows = await db
    .update(improveOptimizations)
    .set(set)
    .where(
      and(
        eq(improveOptimizations.id, id),
        leaseToken ? eq(improveOptimizations.leaseToken, leaseToken) : undefined,
        leaseToken ? inArray(improveOptimizations.status, ["queued", "running"]) : undefined,
      ),
    )
    .returning({ id: improveOptimizations.id });
  return rows.length > 0;
}

/**
 * The candidate in a slot, inserted if it is not there yet: a resumed worker gets the row an
 * earlier one wrote (the unique slot index decides a race).
 */
export async function ensureCandidate(db: Executor, row: typeof improveCandidates.$inferInsert): Promise<CandidateRow> {
  await db.insert(improveCandidates).values(row).onConflictDoNothing();
  const [found] = await db
    .select()
    .from(improveCandidates)
    .where(
      and(
        eq(improveCandidates.optimizationId, row.optimizationId),
        eq(improveCandidates.round, row.round),
        eq(improveCandidates.idx, row.idx),
      ),
    );
  return found!;
}

export async function updateCandidate(db: Executor, id: string, set: Partial<typeof improveCandidates.$inferInsert>) {
  const [row] = await db.update(improveCandidates).set(set).where(eq(improveCandidates.id, id)).returning();
  return row!;
}

/**
 * Claims optimizations due now (queued or running, `next_at` passed, no live lease) under
 * `FOR UPDATE SKIP LOCKED`, leasing each to this worker until `leaseUntil`. One prepared
 * statement: the worker's idle poll is this one round trip.
 */
export async function claimDue(
  db: Executor,
  now: Date,
  leaseUntil: Date,
  limit: number,
  leaseToken: string,
): Promise<OptimizationRow[]> {
  return preparedQuery(db, "improve.claimDueOptimizations", claimStatement).execute({
    now: now.toISOString(),
    leaseUntil: leaseUntil.toISOString(),
    leaseToken,
    limit,
  });
}

function claimStatement(db: Executor) {
  const now = timestampPlaceholder("now");
  const due = db
    .select({ id: improveOptimizations.id })
    .from(improveOptimizations)
    .where(
      and(
        inArray(improveOptimizations.status, ["queued", "running"]),
        lte(improveOptimizations.nextAt, now),
        or(sql`${improveOptimizations.leaseUntil} is null`, lte(improveOptimizations.leaseUntil, now)),
      ),
    )
    .orderBy(asc(improveOptimizations.nextAt))
    .limit(sql.placeholder("limit"))
    .for("update", { skipLocked: true });
  return db
    .update(improveOptimizations)
    .set({ leaseToken: sql`${sql.placeholder("leaseToken")}::uuid`, leaseUntil: timestampPlaceholder("leaseUntil") })
    .where(inArray(improveOptimizations.id, due))
    .returning();
}
