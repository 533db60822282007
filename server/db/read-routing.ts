import { currentAuditActor, type AuditActor } from "@/server/core/audit-actor";
import type { Database, Executor } from "./client";
import { isDatabaseUnavailable } from "./database-failure";
import { replicasOf } from "./open-replicas";
import { rawQuery } from "./prepared";
import { walPosition } from "./wal-position";

/** Who a write position belongs to: the API key, else the signed-in user; none outside a request. */
function callerOf(actor: AuditActor | undefined): string | undefined {
  if (actor?.apiKeyId) return `key:${actor.apiKeyId}`;
  if (actor?.userId) return `user:${actor.userId}`;
  return undefined;
}

/**
 * Runs `read` on a connection that may be stale, but never older than the caller's own last
 * write: a read replica that has replayed it, else `db` (the primary). Without replicas it is
 * `db`, at no cost. The caller is the request's (the audit actor both doors set); outside a
 * request (workers) any replica within the lag bound serves. A replica that fails for the
 * database's sake (stopped, restarting, a recovery conflict) is marked down and the read runs on
 * the primary, so a failing replica costs its readers a retry, never an error. `read` must only
 * read: a replica refuses writes.
 */
export async function replicaRead<T, E extends Executor>(
  db: E,
  read: (db: E | Database) => Promise<T>,
  options: ReplicaReadOptions = {},
): Promise<T> {
  // A transaction (or a database opened without replicas) has no replicas: it reads itself.
  const replicas = replicasOf(db);
  if (!replicas?.anyReady() || options.freshSince === null) return read(db);
  let since: bigint | undefined;
  if (options.freshSince !== undefined) {
    since = replicas.positionSince(options.freshSince);
    if (since === undefined) return read(db);
  }
  const caller = callerOf(currentAuditActor());
  const written = caller === undefined ? undefined : await lastWriteOf(db as Database, caller);
  const position = written === undefined || (since !== undefined && since > written) ? since : written;
  const replica = await replicas.choose(position);
  if (!replica) return read(db);
  try {
    return await read(replica.db);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    replicas.markDown(replica, error);
    return read(db);
  }
}

export interface ReplicaReadOptions {
  /**
   * Read only from a replica that holds every commit made before this time (ms since the epoch,
   * `Date.now()`), else from the primary; `null`: from the primary. For an answer that is kept
   * (the revision cache stores a miss's answer until a change it hears of): a replica behind a
   * change already heard would store the old answer with no later notice to drop it.
   */
  freshSince?: number | null;
}

async function lastWriteOf(db: Database, caller: string): Promise<bigint | undefined> {
  const [row] = await rawQuery<{ lsn: string }>(
    db,
    "select lsn::text as lsn from replica_read_positions where caller = $1",
    [caller],
  );
  return row ? walPosition(row.lsn) : undefined;
}

/**
 * Records that the request's caller wrote: the primary's WAL insert position, taken once the
 * request's transactions have committed, so a replica that has replayed it holds every one of
 * them. Called by both doors after a successful change, before the answer is sent; a no-op
 * without replicas.
 */
export async function recordWrite(db: Database, actor: AuditActor): Promise<void> {
  const caller = callerOf(actor);
  if (!replicasOf(db) || caller === undefined) return;
  await rawQuery(
    db,
    `insert into replica_read_positions (caller, lsn) values ($1, pg_current_wal_insert_lsn())
     on conflict (caller) do update set lsn = greatest(replica_read_positions.lsn, excluded.lsn)`,
    [caller],
  );
}
