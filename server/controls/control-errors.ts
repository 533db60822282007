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

/**
 * Over a requests- or tokens-per-minute limit: `Retry-After` and the IETF draft's `RateLimit`
 * and `RateLimit-Policy` fields (draft-ietf-httpapi-ratelimit-headers: structured lists, one item
 * per policy, `q` quota and `w` window in seconds; `r` remaining and `t` seconds until reset).
 */
export class RateLimitedError extends TooManyRequestsError {
  constructor(detail: string, policy: { name: string; quota: number; remaining: number; resetSeconds: number }) {
    super(detail, policy.resetSeconds, "rate_limited");
    this.fields = { limit: { policy: policy.name, quota: policy.quota, window_seconds: 60 } };
    this.headers = {
      "retry-after": String(policy.resetSeconds),
      "ratelimit-policy": `"${policy.name}";q=${policy.quota};w=60`,
      ratelimit: `"${policy.name}";r=${policy.remaining};t=${policy.resetSeconds}`,
    };
  }
}
