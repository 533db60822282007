import { RateLimiterDrizzle, RateLimiterMemory, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { AppContext } from "@/server/core/app-context";
import { rateLimitPoints } from "@/server/db/schema";

/**
 * A rate-limiter-flexible counter every instance on the database shares: in memory on the
 * embedded database (one process's), in its PostgreSQL store (`rate_limit_points`, one row per
 * key and window under `keyPrefix`) on PostgreSQL.
 */
export function sharedRateLimiter(
  app: Pick<AppContext, "db" | "dbKind">,
  options: { keyPrefix: string; points: number; duration: number },
): RateLimiterAbstract {
  return app.dbKind !== "postgres"
    ? new RateLimiterMemory(options)
    : new RateLimiterDrizzle({ ...options, storeClient: app.db, schema: rateLimitPoints });
}
