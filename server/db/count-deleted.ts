import type { Executor } from "./client";
import { rawQuery } from "./prepared";

/**
 * Runs a `delete` statement (without its own `returning`) and answers how many rows it deleted:
 * the form every bounded erase and retention batch takes, whose callers sum and report counts.
 */
export async function countDeleted(db: Executor, deleteStatement: string, params: unknown[]): Promise<number> {
  const [{ n }] = await rawQuery<{ n: number }>(
    db,
    `with deleted as (${deleteStatement} returning 1) select count(*)::int as n from deleted`,
    params,
  );
  return n;
}

/** A retention batch: deletes at most `limit` of a project's rows older than `before`. */
export type AgeBatch = (db: Executor, projectId: string, before: Date, limit: number) => Promise<number>;

/**
 * The retention batch of one `delete` statement, whose parameters are the project ($1), the age
 * limit ($2, a timestamptz) and the batch size ($3).
 */
export function ageBatch(deleteStatement: string): AgeBatch {
  return (db, projectId, before, limit) => countDeleted(db, deleteStatement, [projectId, before.toISOString(), limit]);
}
