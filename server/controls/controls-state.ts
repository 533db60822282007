import { RateLimiterDrizzle, RateLimiterMemory, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { AppContext } from "@/server/core/app-context";
import type { Database } from "@/server/db";
import { rateLimitPoints } from "@/server/db/schema";

/** A counter far above any limit: the limiter counts, and `checkTurn` compares with each key's own limit. */
const UNBOUNDED = 2_000_000_000;

/** What one app instance keeps for the controls: its rate-limit counters and the spend it last saw. */
export interface ControlsState {
  requests: RateLimiterAbstract;
  tokens: RateLimiterAbstract;
  /** A budget window's spend as last read or written here: `budgetId|windowStart` -> USD. */
  spend: Map<string, { usd: number; readAt: number }>;
}

const states = new WeakMap<Database, ControlsState>();

/**
 * The embedded database is one process's, so its counters live in memory; PostgreSQL keeps them
 * in `rate_limit_points` (rate-limiter-flexible's Drizzle store: one atomic upsert per count), so
 * every app instance on the database counts against the same limit.
 */
export function controlsState(app: Pick<AppContext, "db" | "dbKind">): ControlsState {
  let state = states.get(app.db);
  if (!state) {
    const limiter = (keyPrefix: string) =>
      app.dbKind === "postgres"
        ? new RateLimiterDrizzle({
            storeClient: app.db,
            schema: rateLimitPoints,
            keyPrefix,
            points: UNBOUNDED,
            duration: 60,
          })
        : new RateLimiterMemory({ keyPrefix, points: UNBOUNDED, duration: 60 });
    state = { requests: limiter("rpm"), tokens: limiter("tpm"), spend: new Map() };
    states.set(app.db, state);
  }
  return state;
}
