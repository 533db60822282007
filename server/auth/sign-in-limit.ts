import { lt, sql } from "drizzle-orm";
import type { BetterAuthOptions } from "better-auth";
import { newId } from "@/server/core/ids";
import type { AppContext } from "@/server/core/app-context";
import { rateLimits } from "@/server/db/schema";

type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions["rateLimit"]>["customStorage"]>;

/** Counters older than this are gone for every rule better-auth has (the longest window is 60 s). */
const FORGET_AFTER_MS = 10 * 60_000;

/**
 * better-auth's rate-limit counters (`rate_limits`) as fixed windows: "3 per 10 s" admits three
 * attempts in the 10 seconds from the first, and the fourth waits until those 10 seconds are over.
 * better-auth's own database store moves the window to every admitted attempt, so attempts 9 s
 * apart were refused at the fourth, forever ("3 without a 10-second pause"). One atomic upsert per
 * attempt, so app instances on one database count together; `last_request` holds the window's
 * start. Time is the app's clock, so a test moves it instead of waiting.
 */
export function fixedWindowStore(app: Pick<AppContext, "db" | "now">): RateLimitStorage {
  return {
    async consume(key, rule) {
      const now = app.now().getTime();
      const windowMs = rule.window * 1000;
      const expired = sql`${rateLimits.lastRequest} <= ${now - windowMs}`;
      const [row] = await app.db
        .insert(rateLimits)
        .values({ id: newId(), key, count: 1, lastRequest: now })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            // Refused attempts count too, capped one past the limit (no overflow, still refused).
            count: sql`CASE WHEN ${expired} THEN 1 ELSE LEAST(${rateLimits.count} + 1, ${rule.max + 1}) END`,
            lastRequest: sql`CASE WHEN ${expired} THEN ${now} ELSE ${rateLimits.lastRequest} END`,
          },
        })
        .returning({ count: rateLimits.count, windowStart: rateLimits.lastRequest });
      if (row.count === 1) await app.db.delete(rateLimits).where(lt(rateLimits.lastRequest, now - FORGET_AFTER_MS));
      if (row.count <= rule.max) return { allowed: true, retryAfter: null };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((Number(row.windowStart) + windowMs - now) / 1000)) };
    },
  };
}
