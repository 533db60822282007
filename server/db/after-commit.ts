import { PostgresJsSession, PostgresJsTransaction } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";
import { notificationsOf, poolerOf } from "./client";
import type { Database, Transaction } from "./database-types";

/** A statement that runs right after a transaction's COMMIT, as a transaction of its own. */
export interface AfterCommit {
  text: string;
  params: unknown[];
}

/**
 * Whether `db` can send statements in the same write as a transaction's COMMIT: PostgreSQL
 * through a pool that pipelines (not a transaction pooler, which is not pipelined through and
 * may hand the next statement to another server connection).
 */
export function sendsAfterCommit(db: Database): boolean {
  return notificationsOf(db).kind === "session" && poolerOf(db) === "none";
}

/**
 * Runs `work` in a transaction, then sends its COMMIT and the statements `afterCommit()` gives
 * (built once `work` has settled) in one write on the transaction's connection: postgres.js
 * writes what is queued on a connection within one turn of the event loop together. The server
 * runs each after the COMMIT as a transaction of its own, even when this process dies once the
 * write is out, so a statement that must follow a commit (a NOTIFY that must not serialize it:
 * server/db/README.md, "After the commit") is as sure as one inside it and costs no round trip.
 * Resolves once the commit and every statement have been answered; a failed statement after a
 * good commit is `onAfterCommitFailed`'s, not the caller's. Only where `sendsAfterCommit(db)`.
 */
export async function transactionThen<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
  afterCommit: () => AfterCommit[],
  onAfterCommitFailed: (error: unknown) => void,
): Promise<T> {
  const { session } = db as unknown as { session: DrizzleSession };
  const connection = await session.client.reserve();
  try {
    await connection.unsafe("begin");
    let result: T;
    try {
      // A reserved connection has no savepoints: a nested `tx.transaction()` here fails loudly.
      const txSession = new PostgresJsSession(connection as Sql, session.dialect, session.schema, session.options);
      result = await work(
        new PostgresJsTransaction(session.dialect, txSession as never, session.schema) as unknown as Transaction,
      );
    } catch (error) {
      await connection.unsafe("rollback").catch(() => {});
      throw error;
    }
    const committed = connection.unsafe("commit").execute();
    const after = afterCommit().map((s) =>
      connection
        .unsafe(s.text, s.params as never[], { prepare: true })
        .execute()
        .then(() => {}, onAfterCommitFailed),
    );
    await Promise.all([committed, ...after]);
    return result;
  } finally {
    connection.release();
  }
}

/** What a Drizzle postgres.js database keeps of its driver, to open a transaction on one connection. */
interface DrizzleSession {
  client: Sql;
  dialect: ConstructorParameters<typeof PostgresJsSession>[1];
  schema: ConstructorParameters<typeof PostgresJsSession>[2];
  options: ConstructorParameters<typeof PostgresJsSession>[3];
}
