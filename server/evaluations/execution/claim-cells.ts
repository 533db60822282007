import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { newId } from "@/server/core/ids";
import type { Database } from "@/server/db";
import { evaluationResults, evaluationRuns } from "@/server/db/schema";
import { DEFAULT_BATCH_SIZE, readRunData } from "../model/run-data";
import type { ResultRow, RunRow } from "../model/rows";

export interface ClaimedCell {
  cell: ResultRow;
  run: RunRow;
  token: string;
}

/**
 * Claims up to `limit` due cells of running, active, open runs, under a lease. Run rows are
 * locked with SKIP LOCKED while their cells are claimed, so two workers never claim for one run
 * at once and the run's `batch_size` (cells leased at once, across every worker) holds exactly.
 * A cell whose lease ran out (its worker died) is due again. Counting the attempt at the claim
 * bounds the retries of a cell that crashes its worker.
 */
export async function claimCells(
  db: Database,
  limit: number,
  leaseMs: number,
  now = new Date(),
): Promise<ClaimedCell[]> {
  if (limit <= 0) return [];
  return db.transaction(async (tx) => {
    const runs = await tx
      .select()
      .from(evaluationRuns)
      .where(
        and(
          eq(evaluationRuns.status, "running"),
          sql`${evaluationRuns.flags} @> '{"is_active": true}'`,
          sql`not ${evaluationRuns.flags} @> '{"is_closed": true}'`,
        ),
      )
      .orderBy(asc(evaluationRuns.startedAt))
      .limit(20)
      .for("update", { skipLocked: true });
    const claimed: ClaimedCell[] = [];
    const r = evaluationResults;
    for (const run of runs) {
      if (claimed.length >= limit) break;
      const batchSize = readRunData(run.data).concurrency?.batch_size ?? DEFAULT_BATCH_SIZE;
      const [{ held }] = await tx
        .select({ held: sql<number>`count(*)`.mapWith(Number) })
        .from(r)
        .where(and(eq(r.runId, run.id), eq(r.status, "running"), sql`${r.leaseUntil} >= ${now.toISOString()}`));
      const room = Math.min(batchSize - held, limit - claimed.length);
      if (room <= 0) continue;
      const due = tx
        .select({ id: r.id })
        .from(r)
        .where(
          and(
            eq(r.runId, run.id),
            or(and(eq(r.status, "queued"), lte(r.dueAt, now)), and(eq(r.status, "running"), lt(r.leaseUntil, now))),
          ),
        )
        .orderBy(asc(r.dueAt), asc(r.id))
        .limit(room)
        .for("update", { skipLocked: true });
      const token = newId();
      const cells = await tx
        .update(r)
        .set({
          status: "running",
          leaseUntil: new Date(now.getTime() + leaseMs),
          leaseToken: token,
          attempts: sql`${r.attempts} + 1`,
          updatedAt: now,
        })
        .where(inArray(r.id, due))
        .returning();
      for (const cell of cells) claimed.push({ cell, run, token });
    }
    return claimed;
  });
}

/**
 * Extends the leases of cells this worker still holds. A cell locked right now is being recorded
 * (its lease ends with that write), so it is skipped rather than waited for.
 */
export async function renewLeases(db: Database, tokens: string[], leaseMs: number, now = new Date()): Promise<void> {
  if (tokens.length === 0) return;
  const r = evaluationResults;
  const held = db
    .select({ id: r.id })
    .from(r)
    .where(and(inArray(r.leaseToken, tokens), eq(r.status, "running")))
    .for("update", { skipLocked: true });
  await db
    .update(r)
    .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(inArray(r.id, held));
}
