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
 * What a transaction's work hands back to `transactionThen`: its value, and the statements it sent
 * last without waiting for their answers (queued on the connection: server/db/prepared.ts). They
 * go out in the same write as the COMMIT; should one fail, the COMMIT rolls back and its error is
 * the transaction's.
 */
export interface Pipelined<T> {
  value: T;
  sentLast: Promise<unknown>;
}

/**
 * Runs `work` in a transaction on one reserved connection, in two writes where the statements
 * allow it: BEGIN goes out with the work's first statement, and the work's last statements
 * (`sentLast`), its COMMIT and the statements `afterCommit()` gives (built once the work has
 * settled) go out together. postgres.js writes what is queued on a connection within one turn of
 * the event loop together, in the order it was queued. The server runs each `afterCommit`
 * statement after the COMMIT as a transaction of its own, even when this process dies once the
 * write is out, so a statement that must follow a commit (a NOTIFY that must not serialize it:
 * server/db/README.md, "After the commit") is as sure as one inside it and costs no round trip.
 * Resolves once the COMMIT has been answered, without waiting for the statements after it; one
 * of those that fails is `onAfterCommitFailed`'s, not the caller's. Only where `sendsAfterCommit(db)`.
 */
export async function transactionThen<T>(
  db: Database,
  work: (tx: Transaction) => Promise<Pipelined<T>>,
  afterCommit: () => AfterCommit[],
  onAfterCommitFailed: (error: unknown) => void,
): Promise<T> {
  const { session } = db as unknown as { session: DrizzleSession };
  const connection = await session.client.reserve();
  // Once written, the statements after the COMMIT are the server's: the caller does not wait for
  // their answers, only the connection does before it goes back to the pool.
  let answeredAfter: Promise<unknown> | undefined;
  try {
    // Not awaited: it fails only with its connection, and then so does every statement behind it.
    const begun = connection.unsafe("begin").execute();
    let done: Pipelined<T>;
    try {
      // A reserved connection has no savepoints: a nested `tx.transaction()` here fails loudly.
      const txSession = new PostgresJsSession(connection as Sql, session.dialect, session.schema, session.options);
      done = await work(
        new PostgresJsTransaction(session.dialect, txSession as never, session.schema) as unknown as Transaction,
      );
    } catch (error) {
      await begun.catch(() => {});
      await connection.unsafe("rollback").catch(() => {});
      throw error;
    }
    const last = Promise.allSettled([done.sentLast]);
    const committed = connection.unsafe("commit").execute();
    answeredAfter = Promise.all(
      afterCommit().map((s) =>
        connection
          .unsafe(s.text, s.params as never[], { prepare: true })
          .execute()
          .then(() => {}, onAfterCommitFailed),
      ),
    );
    const [[lastOutcome], commit] = await Promise.all([last, committed, begun]);
    if (lastOutcome.status === "rejected") throw lastOutcome.reason;
    // A statement failed without its error reaching us is still no commit.
    if (commit.command !== "COMMIT") throw new Error(`the transaction ended in ${commit.command}, not COMMIT`);
    return done.value;
  } finally {
    if (answeredAfter) void answeredAfter.then(() => connection.release());
    else connection.release();
  }
}

/** What a Drizzle postgres.js database keeps of its driver, to open a transaction on one connection. */
interface DrizzleSession {
  client: Sql;
  dialect: ConstructorParameters<typeof PostgresJsSession>[1];
  schema: ConstructorParameters<typeof PostgresJsSession>[2];
  options: ConstructorParameters<typeof PostgresJsSession>[3];
}
