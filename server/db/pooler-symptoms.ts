import type { Sql } from "postgres";
import { driverErrorOf } from "./database-failure";

/**
 * What PostgreSQL answers a pool that prepares statements through a transaction pooler: a
 * statement prepared on one server connection is executed on another ("prepared statement … does
 * not exist", 26000), or prepared again on one that already holds its name (42P05).
 */
const SYMPTOMS = new Set(["26000", "42P05"]);

export function isPoolerSymptom(error: unknown): boolean {
  const code = (driverErrorOf(error) as { code?: unknown } | null)?.code;
  return typeof code === "string" && SYMPTOMS.has(code);
}

export interface SwitchingPool {
  /** The pool to hand Drizzle and `prepared.ts`: every call goes to the pool in use now. */
  client: Sql;
  /** Ends every pool it used. */
  end(options: { timeout: number }): Promise<void>;
}

const PREVIOUS_POOL_GRACE_SECONDS = 30;

type Rejecting = { reject?: (error: unknown) => void };

/**
 * `pool`, watched for a transaction pooler's symptoms. At the first, every later statement goes to
 * `poolerPool()` (made then: no prepared statements, no pipelining, as if DATABASE_POOLER had
 * said so), the first pool is ended once its statements in flight are answered, and `onSymptom`
 * runs, once. The statement that showed it has failed already: postgres.js prepares it again
 * once outside a transaction, but inside one the transaction is lost.
 *
 * It watches the statements the pool runs and the transactions it begins (an error in a
 * transaction rejects `begin`). postgres.js has no error hook, so a query's `reject` (its own
 * property) is wrapped; tests/foundation/pooler-unmarked.test.ts fails if an upgrade moves it.
 */
export function switchToPoolerOnSymptom(
  pool: Sql,
  poolerPool: () => Sql,
  onSymptom: (error: unknown) => void,
): SwitchingPool {
  let current = pool;
  let ended: Promise<void> | undefined;
  const watch = (error: unknown) => {
    if (current !== pool || !isPoolerSymptom(error)) return;
    current = poolerPool();
    // Drizzle set its parsers and serializers (dates as text, JSON as given) on the first pool.
    Object.assign(current.options.parsers, pool.options.parsers);
    Object.assign(current.options.serializers, pool.options.serializers);
    // Statements in flight on it keep their connections until answered (a transaction ends).
    ended = pool.end({ timeout: PREVIOUS_POOL_GRACE_SECONDS });
    onSymptom(error);
  };
  const client = new Proxy(pool, {
    get(_target, property) {
      if (current !== pool) return Reflect.get(current, property);
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => {
          const query = pool.unsafe(...args) as unknown as Rejecting;
          const reject = query.reject;
          if (typeof reject === "function") {
            query.reject = (error) => {
              watch(error);
              reject(error);
            };
          }
          return query;
        };
      }
      if (property === "begin") {
        return (...args: Parameters<Sql["begin"]>) =>
          (pool.begin as (...a: unknown[]) => Promise<unknown>)(...args).catch((error: unknown) => {
            watch(error);
            throw error;
          });
      }
      return Reflect.get(pool, property);
    },
  });
  return {
    client,
    end: async (options) => {
      if (current === pool) return pool.end(options);
      await Promise.all([ended, current.end(options)]);
    },
  };
}
