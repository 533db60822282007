import { AISDKError, APICallError, RetryError } from "ai";
import { findEgressRefusal } from "@/server/egress";
import type { ResolvedConnection } from "./providers/connection";

/**
 * A provider failure as a sentence a person can act on. Built from the status code and the
 * connection's label only: provider error bodies can echo (parts of) the key, so they never reach
 * the stream. A 2xx status means the reply broke off after it had started.
 */
export function runErrorMessage(error: unknown, connection: ResolvedConnection): string {
  const refusal = findEgressRefusal(error) ?? findEgressRefusal((error as { lastError?: unknown } | undefined)?.lastError);
  if (refusal) {
    return `${capitalise(connection.label)} points at an address this server does not connect to (${refusal.reason}); an operator can allow it with EGRESS_ALLOWLIST.`;
  }
  const status = statusOf(error);
  if (status === 401 || status === 403) return `${capitalise(connection.label)} was rejected by the provider: ${status}. Check the key.`;
  if (status === 404) return `The ${connection.provider} provider does not know model "${connection.model}" (404).`;
  if (status === 429) return `The ${connection.provider} provider is rate limiting ${connection.label} (429); retry later.`;
  if (status !== undefined && (status < 200 || status >= 300)) return `The ${connection.provider} provider failed with status ${status} for model "${connection.model}"; retry the turn.`;
  // The SDK refused the request before sending it (an invalid prompt or tool schema): its message
  // describes the request, never the credential.
  if (status === undefined && AISDKError.isInstance(error) && !APICallError.isInstance(error) && !RetryError.isInstance(error)) {
    return `The turn could not be sent to the ${connection.provider} provider: ${error.message}`;
  }
  // A plain object (not an Error) is the provider's own error event inside the stream.
  if (status === undefined && error !== null && typeof error === "object" && !(error instanceof Error)) {
    return `The ${connection.provider} provider reported an error in the middle of its reply; retry the turn.`;
  }
  return `The connection to the ${connection.provider} provider was lost before the reply finished; retry the turn.`;
}

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  if (error && typeof error === "object" && "lastError" in error) return statusOf((error as { lastError: unknown }).lastError);
  return undefined;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
