import { AppError, ForbiddenError, TooManyRequestsError } from "@/server/core/errors";

/** A budget's window has spent its limit: no model is called until it resets. */
export class BudgetExceededError extends AppError {
  constructor(detail: string, budget: Record<string, unknown>) {
    super(402, "budget_exceeded", detail);
    this.fields = { budget };
  }
}

/** The resolved model is not on an allowlist; nothing was sent. */
export class ModelNotAllowedError extends ForbiddenError {
  constructor(detail: string, model: string, rule: { owner: string; patterns: string[] }) {
    super(detail, "model_not_allowed");
    this.fields = { model, rule: { owner: rule.owner, patterns: rule.patterns } };
  }
}

/** One rate limit a request counted against: its quota per 60 s, what is left, and when it starts again. */
export interface RateLimitPolicy {
  name: string;
  quota: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): structured lists, one item per
 * policy, `q` quota and `w` window in seconds in `RateLimit-Policy`; `r` remaining and `t`
 * seconds until reset in `RateLimit`. On every answer of a rate-limited turn, refused or not.
 */
export function rateLimitHeaders(policies: RateLimitPolicy[]): Record<string, string> {
  if (!policies.length) return {};
  return {
    "ratelimit-policy": policies.map((p) => `"${p.name}";q=${p.quota};w=60`).join(", "),
    ratelimit: policies.map((p) => `"${p.name}";r=${p.remaining};t=${p.resetSeconds}`).join(", "),
  };
}

/** Over a requests- or tokens-per-minute limit: `Retry-After` and the refusing policy's `RateLimit` fields. */
export class RateLimitedError extends TooManyRequestsError {
  constructor(detail: string, policy: RateLimitPolicy) {
    super(detail, policy.resetSeconds, "rate_limited");
    this.fields = { limit: { policy: policy.name, quota: policy.quota, window_seconds: 60 } };
    this.headers = { "retry-after": String(policy.resetSeconds), ...rateLimitHeaders([{ ...policy, remaining: 0 }]) };
  }
}
