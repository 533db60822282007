import { and, asc, eq, getTableName, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { preparedQuery, timestampPlaceholder, type Executor } from "@/server/db";

/** How long a claimed delivery belongs to its worker: the request time-out plus a margin. */
export function leaseMs(app: AppContext): number {
  return app.config.webhookTimeoutMs + 5_000;
}

/** A table of leased deliveries: the columns a claim reads and sets (webhook deliveries, A2A pushes). */
export type LeasedDeliveryTable = PgTable & {
  id: PgColumn;
  status: PgColumn;
  nextAttemptAt: PgColumn;
  leaseUntil: PgColumn;
  leaseToken: PgColumn;
  attempts: PgColumn;
  updatedAt: PgColumn;
};

/** A table every claimed row must join, and what must hold of it (a webhook's active subscription). */
export interface ClaimCondition {
  table: PgTable;
  on: SQL;
  where: SQL;
}

/**
 * Claims up to `limit` due deliveries of `table` in one statement (FOR UPDATE SKIP LOCKED, so
 * workers take disjoint rows) and leases them. The lease, not an open transaction, keeps them
 * while the HTTP requests run: a worker killed mid-delivery holds no lock, and its deliveries are
 * due again when the lease runs out. Counting the attempt at the claim bounds the retries of a
 * delivery that crashes its worker.
 */
export async function claimDue<T extends LeasedDeliveryTable>(
  app: AppContext,
  table: T,
  limit: number,
  options: { joined?: ClaimCondition; now?: Date } = {},
): Promise<T["$inferSelect"][]> {
  const { joined, now = new Date() } = options;
  // Prepared, compiled once per table (so a table has one `joined`): the pump runs it on every
  // poll, idle ones included.
  const claim = preparedQuery(app.db, `claimDue.${getTableName(table)}`, (db) => claimStatement(db, table, joined));
  return (await claim.execute({
    now: now.toISOString(),
    limit,
    leaseUntil: new Date(now.getTime() + leaseMs(app)).toISOString(),
    leaseToken: newId(),
  })) as T["$inferSelect"][];
}

function claimStatement(db: Executor, table: LeasedDeliveryTable, joined: ClaimCondition | undefined) {
  const d = table;
  const now = timestampPlaceholder("now");
  const from = db.select({ id: d.id }).from(d).$dynamic();
  const due = (joined ? from.innerJoin(joined.table, joined.on) : from)
    .where(
      and(
        eq(d.status, "pending"),
        lte(d.nextAttemptAt, now),
        or(isNull(d.leaseUntil), lt(d.leaseUntil, now)),
        joined?.where,
      ),
    )
    .orderBy(asc(d.nextAttemptAt))
    .limit(sql.placeholder("limit"))
    .for("update", { of: d, skipLocked: true });
  const lease = {
    leaseUntil: timestampPlaceholder("leaseUntil"),
    leaseToken: sql`${sql.placeholder("leaseToken")}::uuid`,
    attempts: sql`${d.attempts} + 1`,
    updatedAt: now,
  } as PgUpdateSetSource<LeasedDeliveryTable>;
  return db.update(d).set(lease).where(inArray(d.id, due)).returning();
}
