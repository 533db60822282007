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
