import { createHash } from "node:crypto";
import { rawQuery, type Executor } from "@/server/db";

const LOCK_KEYS = `select count(pg_advisory_xact_lock(k)) from unnest($1::text::bigint[]) as l(k)`;

/**
 * Takes the transaction-scoped advisory lock of every (project, trace), in one sorted order so
 * two workers locking overlapping sets never deadlock. A key is 64 bits of a hash; a collision
 * only makes two traces take turns. Taking a lock the transaction already holds is free.
 */
export async function lockTraces(tx: Executor, keys: { projectId: string; traceId: string }[]): Promise<void> {
  if (keys.length === 0) return;
  const sorted = [...new Set(keys.map((k) => lockKey(k.projectId, k.traceId)))].sort(compareBigint);
  await rawQuery(tx, LOCK_KEYS, [`{${sorted.join(",")}}`]);
}

function lockKey(projectId: string, traceId: string): string {
  return createHash("sha1").update(projectId).update(traceId).digest().readBigInt64BE(0).toString();
}

function compareBigint(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
