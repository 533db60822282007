import type { Executor } from "./client";
import { rawQuery } from "./prepared";

/** The tables the service fills in bulk: versioning, the outbox, spans, webhook deliveries. */
export const BULK_TABLES = [
  "artifacts",
  "variants",
  "revisions",
  "testcases",
  "events",
  "spans",
  "span_ingest",
  "webhook_deliveries",
  "webhook_attempts",
];

// Only one process analyzes at a time; the others skip their pass (any constant, the same everywhere).
const ANALYZE_LOCK = 7_241_002;

/**
 * ANALYZE the bulk tables whose rows changed by more than autovacuum's own default threshold
 * (50 rows + 10% of the rows at the last analyze) since they were last analyzed, by anyone:
 * the counts are the database's (`pg_stat_user_tables`), so writes of every process add up.
 * An ANALYZE also invalidates every session's cached plans on the table, so pooled connections
 * replan with the new statistics (see README.md, "Plans and statistics"). Returns the tables
 * analyzed; none when another process holds the lock.
 */
export async function analyzeGrownTables(db: Executor): Promise<string[]> {
  const grown = await rawQuery<{ table: string }>(
    db,
    // A partition (of spans) counts under its parent's name and is analyzed itself.
    `select s.relname as "table" from pg_stat_user_tables s join pg_class c on c.oid = s.relid
       left join pg_inherits i on i.inhrelid = s.relid left join pg_class parent on parent.oid = i.inhparent
     where s.schemaname = current_schema() and coalesce(parent.relname, s.relname) = any(string_to_array($1, ','))
       and s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)`,
    [BULK_TABLES.join(",")],
  );
  if (grown.length === 0) return [];
  const tables = grown.map((g) => g.table);
  const analyzed = await transactionOf(db, async (tx) => {
    const [{ locked }] = await rawQuery<{ locked: boolean }>(
      tx,
      `select pg_try_advisory_xact_lock(${ANALYZE_LOCK}) as locked`,
    );
    if (!locked) return false;
    // Names come from BULK_TABLES (matched above), never from input.
    await rawQuery(tx, `analyze ${tables.map((t) => `"${t}"`).join(", ")}`);
    return true;
  });
  return analyzed ? tables : [];
}

/** Runs `work` in a transaction of `db` (the advisory lock is released when it ends). */
function transactionOf<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  return (db as { transaction(run: (tx: Executor) => Promise<T>): Promise<T> }).transaction(work);
}
