import { AISDKError, APICallError, RetryError } from "ai";
import { findEgressRefusal } from "@/server/egress";
import type { ResolvedConnection } from "./providers/connection";

/**
 * A provider failure as a sentence a person can act on. Built from the status code and the
 * connection's label only: provider error bodies can echo (parts of) the key, so they never reach
 * the stream. A 2xx status means the reply broke off after it had started.
 */
export function runErrorMessage(error: unknown, connection: ResolvedConnection): string {
  const refusal =
    findEgressRefusal(error) ?? findEgressRefusal((error as { lastError?: unknown } | undefined)?.lastError);
  if (refusal) {
    return `${capitalise(connection.label)} points at an address this server does not connect to (${refusal.reason}); an operator can allow it with EGRESS_ALLOWLIST.`;
  }
  const unreached = connectFailure(error);
  if (unreached) return `${capitalise(connection.label)} could not be reached: ${unreached}`;
  const status = statusOf(error);
  if (status === 401 || status === 403)
    return `${capitalise(connection.label)} was rejected by the provider: ${status}. Check the key.`;
  if (status === 404) return `The ${connection.provider} provider does not know model "${connection.model}" (404).`;
  if (status === 429)
    return `The ${connection.provider} provider is rate limiting ${connection.label} (429); retry later.`;
  if (status !== undefined && (status < 200 || status >= 300))
    return `The ${connection.provider} provider failed with status ${status} for model "${connection.model}"; retry the turn.`;
  // The SDK refused the request before sending it (an invalid prompt or tool schema): its message
  // describes the request, never the credential.
  if (
    status === undefined &&
    AISDKError.isInstance(error) &&
    !APICallError.isInstance(error) &&
    !RetryError.isInstance(error)
  ) {
    return `The turn could not be sent to the ${connection.provider} provider: ${error.message}`;
  }
  // A plain object (not an Error) is the provider's own error event inside the stream.
  if (status === undefined && error !== null && typeof error === "object" && !(error instanceof Error)) {
    return `The ${connection.provider} provider reported an error in the middle of its reply; retry the turn.`;
  }
  return `The connection to the ${connection.provider} provider was lost before the reply finished; retry the turn.`;
}

/** Socket error codes raised before any reply, with what they mean and what to check. */
const CONNECT_FAILURES: Record<string, (cause: SocketError) => string> = {
  ENOTFOUND: (c) =>
    `the host name${host(c)} does not resolve (DNS failure). Check the base URL and the server's network.`,
  EAI_AGAIN: (c) =>
    `looking up the host name${host(c)} failed (DNS unavailable). Check the server's network and retry.`,
  ECONNREFUSED: (c) =>
    `${where(c)} refused the connection. Check that the provider's server is running at its base URL.`,
  ETIMEDOUT: (c) => `connecting to ${where(c)} timed out. Check the base URL and the server's network.`,
  UND_ERR_CONNECT_TIMEOUT: (c) => `connecting to ${where(c)} timed out. Check the base URL and the server's network.`,
  ENETUNREACH: (c) => `the network of ${where(c)} is unreachable from this server.`,
  EHOSTUNREACH: (c) => `${where(c)} is unreachable from this server.`,
  CERT_HAS_EXPIRED: () => "its TLS certificate has expired.",
  DEPTH_ZERO_SELF_SIGNED_CERT: () =>
    "its TLS certificate is self-signed and not trusted (NODE_EXTRA_CA_CERTS can add it).",
  SELF_SIGNED_CERT_IN_CHAIN: () => "its TLS certificate chain is not trusted (NODE_EXTRA_CA_CERTS can add it).",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: () =>
    "its TLS certificate cannot be verified (NODE_EXTRA_CA_CERTS can add its issuer).",
  ERR_TLS_CERT_ALTNAME_INVALID: () => "its TLS certificate does not name the host it was reached at.",
};

interface SocketError {
  code: string;
  hostname?: string;
  address?: string;
  port?: number;
}

const host = (cause: SocketError) => (cause.hostname ? ` "${cause.hostname}"` : "");
const where = (cause: SocketError) =>
  cause.address ? `${cause.address}${cause.port ? `:${cause.port}` : ""}` : "the provider's address";

/**
 * Why no connection was made, from the socket error under the SDK's (`cause`, a retry's
 * `lastError`, an `AggregateError` of addresses tried). Undefined when one was made: a reply that
 * broke off is a different failure.
 */
function connectFailure(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 6) return undefined;
  const node = error as { code?: unknown; cause?: unknown; lastError?: unknown; errors?: unknown };
  if (typeof node.code === "string" && node.code in CONNECT_FAILURES)
    return CONNECT_FAILURES[node.code](node as SocketError);
  for (const next of [node.lastError, node.cause, ...(Array.isArray(node.errors) ? node.errors : [])]) {
    const found = connectFailure(next, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  if (error && typeof error === "object" && "lastError" in error)
    return statusOf((error as { lastError: unknown }).lastError);
  return undefined;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
