import { APICallError, RetryError } from "ai";
import { findEgressRefusal } from "@/server/egress";
import type { ResolvedConnection } from "@/server/agent-runs";
import { EvaluatorFailure } from "./evaluator-failure";

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  if (RetryError.isInstance(error)) return statusOf(error.lastError);
  return undefined;
}

/**
 * A failed model call as a failure a person can act on. Rate limits, 5xx, timeouts and dropped
 * connections are retryable; a rejected key, an unknown model or a refused address are not.
 * Provider error bodies are never quoted: they can echo parts of the key.
 */
export function providerFailure(
  error: unknown,
  connection: ResolvedConnection,
  what: string,
  timedOut: boolean,
): EvaluatorFailure {
  const who = `the ${connection.provider} provider (model "${connection.model}", ${connection.label})`;
  const refusal =
    findEgressRefusal(error) ?? findEgressRefusal((error as { lastError?: unknown } | undefined)?.lastError);
  if (refusal)
    return new EvaluatorFailure(
      "provider_unreachable",
      `${what}: ${connection.label} points at an address this server does not connect to (${refusal.reason}); an operator can allow it with EGRESS_ALLOWLIST`,
    );
  if (timedOut) return new EvaluatorFailure("provider_timeout", `${what}: ${who} did not answer in time`, true);
  const status = statusOf(error);
  if (status === 401 || status === 403)
    return new EvaluatorFailure(
      "provider_rejected",
      `${what}: ${who} rejected the credential (${status}); check the key`,
    );
  if (status === 404)
    return new EvaluatorFailure(
      "provider_rejected",
      `${what}: ${who} does not know this model (404); check the model name`,
    );
  if (status === 429)
    return new EvaluatorFailure("provider_rate_limited", `${what}: ${who} is rate limiting (429)`, true);
  if (status !== undefined && status >= 500)
    return new EvaluatorFailure("provider_error", `${what}: ${who} failed with status ${status}`, true);
  if (status !== undefined)
    return new EvaluatorFailure(
      "provider_rejected",
      `${what}: ${who} refused the request with status ${status}; check the model and its parameters`,
    );
  if (APICallError.isInstance(error) || RetryError.isInstance(error) || error instanceof TypeError) {
    return new EvaluatorFailure("provider_error", `${what}: the connection to ${who} failed before it answered`, true);
  }
  return new EvaluatorFailure(
    "provider_error",
    `${what}: ${who} call failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}
