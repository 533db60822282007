import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sharedRateLimiter } from "@/server/controls";
import type { AppContext } from "@/server/core/app-context";
import { TooManyRequestsError } from "@/server/core/errors";
import { processWide } from "@/server/core/process-wide";

/** Registrations one client address may make per window: a client registers once per install. */
export const REGISTRATIONS_PER_WINDOW = 20;
export const REGISTRATION_WINDOW_S = 3600;
const POLICY = "oauth_registrations";

/**
 * The limiter of dynamic registration, one per database in the process: the service's request
 * limits' counter (server/controls' `sharedRateLimiter`, rate-limiter-flexible), under its own key
 * prefix, so every instance counts together.
 */
const limiterOf = processWide<object, { limiter?: RateLimiterAbstract }>("oauth-registration-limit", () => ({}));

function limiter(app: Pick<AppContext, "db" | "dbKind">): RateLimiterAbstract {
  const holder = limiterOf(app.db);
  const options = { keyPrefix: "oauth_register", points: REGISTRATIONS_PER_WINDOW, duration: REGISTRATION_WINDOW_S };
  holder.limiter ??= sharedRateLimiter(app, options);
  return holder.limiter;
}

/**
 * Counts one registration from `address` (clients whose address is unknown share one count) and
 * refuses it past the limit: 429 `rate_limited` with `Retry-After`. Registration is
 * unauthenticated, so this is what stops one client from filling `oauth_clients`.
 */
export async function limitRegistration(
  app: Pick<AppContext, "db" | "dbKind">,
  address: string | undefined,
): Promise<void> {
  try {
    await limiter(app).consume(address ?? "unknown");
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    const error = new TooManyRequestsError(
      `Too many client registrations from this address (${REGISTRATIONS_PER_WINDOW} per hour); retry in ${seconds} s`,
      seconds,
      "rate_limited",
    );
    // The fields and headers every `rate_limited` answer carries (the IETF draft's RateLimit fields).
    error.fields = {
      limit: { policy: POLICY, quota: REGISTRATIONS_PER_WINDOW, window_seconds: REGISTRATION_WINDOW_S },
    };
    error.headers = {
      "retry-after": String(seconds),
      "ratelimit-policy": `"${POLICY}";q=${REGISTRATIONS_PER_WINDOW};w=${REGISTRATION_WINDOW_S}`,
      ratelimit: `"${POLICY}";r=0;t=${seconds}`,
    };
    throw error;
  }
}
