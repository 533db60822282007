import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { preparedQuery, timestampPlaceholder, type Database, type Executor } from "@/server/db";
import { improveFailureModes, improveTriages } from "@/server/db/schema";
import { emitEvent } from "@/server/events";

export type TriageRecord = typeof improveTriages.$inferSelect;
export type FailureModeRecord = typeof improveFailureModes.$inferSelect;

/** A worker owns a claimed triage this long; it renews the lease before every batch. */
export const TRIAGE_LEASE_MS = 60_000;

/** Inserts a triage; undefined when one of that id exists already. */
export async function insertTriage(
  db: Executor,
  row: typeof improveTriages.$inferInsert,
): Promise<TriageRecord | undefined> {
  const [inserted] = await db.insert(improveTriages).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findTriage(db: Executor, projectId: string, id: string): Promise<TriageRecord> {
  const [row] = await db
    .select()
    .from(improveTriages)
    .where(and(eq(improveTriages.projectId, projectId), eq(improveTriages.id, id)));
  if (!row) throw new NotFoundError(`triage ${id} does not exist in this project`, "triage_not_found");
  return row;
}

export async function modesOf(db: Executor, triageIds: string[]): Promise<FailureModeRecord[]> {
  if (triageIds.length === 0) return [];
  return db
    .select()
    .from(improveFailureModes)
    .where(inArray(improveFailureModes.triageId, triageIds))
    .orderBy(asc(improveFailureModes.position));
}

export async function findFailureMode(db: Executor, projectId: string, id: string): Promise<FailureModeRecord> {
  const [row] = await db
    .select()
    .from(improveFailureModes)
    .where(and(eq(improveFailureModes.projectId, projectId), eq(improveFailureModes.id, id)));
  if (!row) throw new NotFoundError(`failure mode ${id} does not exist in this project`, "failure_mode_not_found");
  return row;
}

/** A page of a project's triages, newest first (ids are UUIDv7: time-ordered). */
export async function pageTriages(
  db: Executor,
  projectId: string,
  page: { limit: number; cursor?: string },
): Promise<{ rows: TriageRecord[]; next?: string }> {
  const rows = await db
    .select()
    .from(improveTriages)
    .where(and(eq(improveTriages.projectId, projectId), page.cursor ? lt(improveTriages.id, page.cursor) : undefined))
    .orderBy(desc(improveTriages.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { rows: shown, ...(more ? { next: shown.at(-1)!.id } : {}) };
}

/** Cancels a queued or running triage; its worker sees the status at its next batch and stops. */
export async function markCancelled(db: Database, projectId: string, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: improveTriages.status })
      .from(improveTriages)
      .where(and(eq(improveTriages.projectId, projectId), eq(improveTriages.id, id)))
      .for("update");
    if (!row) throw new NotFoundError(`triage ${id} does not exist in this project`, "triage_not_found");
    if (row.status !== "queued" && row.status !== "running")
      throw new ConflictError(
        `triage ${id} has ended (${row.status}); only a queued or running one can be cancelled`,
        "triage_ended",
      );
    await tx
      .update(improveTriages)
      .set({ status: "cancelled", finishedAt: now, leaseToken: null, leaseUntil: null })
      .where(eq(improveTriages.id, id));
  });
}

/**
 * Claims open triages (queued, or running under a lease that ran out: its worker died) with
 * `FOR UPDATE SKIP LOCKED`, each under a new lease token: a worker that lost its lease writes
 * nothing more (every write below is conditioned on the token). One prepared statement, no
 * explicit transaction: the worker's idle poll is this one round trip.
 */
export async function claimTriages(db: Database, now: Date, limit: number): Promise<TriageRecord[]> {
  return preparedQuery(db, "improve.claimTriages", claimStatement).execute({
    now: now.toISOString(),
    leaseUntil: new Date(now.getTime() + TRIAGE_LEASE_MS).toISOString(),
    leaseToken: newId(),
    limit,
  });
}

function claimStatement(db: Executor) {
  const now = timestampPlaceholder("now");
  const open = db
    .select({ id: improveTriages.id })
    .from(improveTriages)
    .where(
      and(
        inArray(improveTriages.status, ["queued", "running"]),
        or(isNull(improveTriages.leaseUntil), lt(improveTriages.leaseUntil, now)),
      ),
    )
    .orderBy(asc(improveTriages.id))
    .limit(sql.placeholder("limit"))
    .for("update", { skipLocked: true });
  return db
    .update(improveTriages)
    .set({
      status: "running",
      leaseToken: sql`${sql.placeholder("leaseToken")}::uuid`,
      leaseUntil: timestampPlaceholder("leaseUntil"),
      startedAt: sql`coalesce(${improveTriages.startedAt}, ${now})`,
      attempts: sql`${improveTriages.attempts} + 1`,
    })
    .where(inArray(improveTriages.id, open))
    .returning();
}

const held = (row: { id: string; leaseToken: string | null }) =>
  and(
    eq(improveTriages.id, row.id),
    eq(improveTriages.leaseToken, row.leaseToken!),
    eq(improveTriages.status, "running"),
  );

/**
 * Saves what a worker has done under its lease and renews it. False when the lease is no longer
 * its own (taken over, or the triage was cancelled): the worker stops without writing.
 */
export async function saveUnderLease(
  db: Executor,
  row: TriageRecord,
  now: Date,
  fields: Partial<Pick<TriageRecord, "items" | "partial" | "progress" | "spendUsd">>,
): Promise<boolean> {
  const updated = await db
    .update(improveTriages)
    .set({ ...fields, leaseUntil: new Date(now.getTime() + TRIAGE_LEASE_MS) })
    .where(held(row))
    .returning({ id: improveTriages.id });
  return updated.length === 1;
}

export interface NewMode {
  name: string;
  description: string;
  count: number;
  examples: Record<string, unknown>[];
  signature: Record<string, string>;
}

/**
 * Ends a triage under its lease: the failure modes, the final status and the outbox event
 * (`improve.triages.finished|failed`) in one transaction. False when the lease was lost.
 */
export async function finishUnderLease(
  db: Database,
  row: TriageRecord,
  now: Date,
  outcome: {
    status: "succeeded" | "failed";
    modes: NewMode[];
    fields: Partial<Pick<TriageRecord, "progress" | "spendUsd" | "stopReason" | "note" | "error" | "partial">>;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(improveTriages)
      .set({ ...outcome.fields, status: outcome.status, finishedAt: now, leaseToken: null, leaseUntil: null })
      .where(held(row))
      .returning();
    if (!done) return false;
    if (outcome.modes.length)
      await tx.insert(improveFailureModes).values(
        outcome.modes.map((mode, position) => ({
          id: newId(),
          projectId: row.projectId,
          triageId: row.id,
          position,
          createdAt: now,
          ...mode,
        })),
      );
    await emitEvent(tx, {
      projectId: row.projectId,
      type: outcome.status === "succeeded" ? "improve.triages.finished" : "improve.triages.failed",
      attributes: {
        triage_id: row.id,
        status: outcome.status,
        method: row.method,
        failure_modes: outcome.modes.length,
        ...(outcome.fields.stopReason ? { stop_reason: outcome.fields.stopReason } : {}),
        ...(outcome.fields.error ? { error: outcome.fields.error } : {}),
      },
    });
    return true;
  });
}
