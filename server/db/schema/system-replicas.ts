import { customType, pgTable, text } from "drizzle-orm/pg-core";

/** A WAL position (`0/16B3748`), compared by PostgreSQL as one. */
const pgLsn = customType<{ data: string; driverData: string }>({ dataType: () => "pg_lsn" });

/**
 * Read-your-writes across instances (server/db/README.md, "Read replicas"): each caller's last
 * write, as the primary's WAL insert position once that write's request had committed. A read
 * goes to a replica only once the replica has replayed past it. Written and read on the primary
 * only, and only when replicas are configured. UNLOGGED (migration 0039): no WAL, so recording a
 * position costs no flush and is not replicated; a crash of the primary empties it (server/db
 * README). Named for server/system, the area that shows the replicas' state: a schema file names
 * an area other than db.
 */
export const replicaReadPositions = pgTable("replica_read_positions", {
  /** `key:<api key id>` or `user:<user id>`: who wrote. */
  caller: text("caller").primaryKey(),
  lsn: pgLsn("lsn").notNull(),
});
