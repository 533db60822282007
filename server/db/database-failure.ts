import { ServiceUnavailableError } from "@/server/core/errors";

/**
 * Codes of a failure to reach or use the database: Node's socket errors and postgres.js's
 * connection states. Any SQLSTATE counts too where the statement cannot be refused for its input
 * (a credential lookup): a lost connection, a pooler's missing prepared statement, a failed
 * login to the database, a missing table.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);
// PGlite throws plain errors once closed or when its WebAssembly instance died.
const PGLITE_MESSAGES = /^PGlite (is closed|is closing|failed)/;

/** The driver's own error under Drizzle's `DrizzleQueryError` (whose message carries the query's parameters). */
export function driverErrorOf(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (!cause || typeof cause !== "object") return current;
    current = cause;
  }
  return current;
}

/** The driver error's code ("" when none), whether it is a SQLSTATE, and whether PGlite is gone. */
function driverFailure(error: unknown): { code: string; sqlState: boolean; pgliteGone: boolean } | undefined {
  const driver = driverErrorOf(error) as { code?: unknown; message?: unknown } | null;
  if (!driver || typeof driver !== "object") return undefined;
  const code = typeof driver.code === "string" ? driver.code : "";
  return {
    code,
    sqlState: /^[0-9A-Z]{5}$/.test(code),
    pgliteGone: typeof driver.message === "string" && PGLITE_MESSAGES.test(driver.message),
  };
}

/** Whether `error` came from the database or the way to it (not from our own code). */
export function isDatabaseFailure(error: unknown): boolean {
  const failure = driverFailure(error);
  if (!failure) return false;
  return NETWORK_CODES.has(failure.code) || failure.sqlState || failure.pgliteGone;
}

// SQLSTATE classes of a database unusable for now whatever the statement: connection (08), a
// transaction the server rolled back (40: serialization, deadlock), resources (53), operator
// intervention (57, but not 57014, a statement's own timeout), system error (58); and a
// transaction pooler's missing prepared statement (pooler-symptoms.ts).
const UNAVAILABLE_CLASSES = new Set(["08", "40", "53", "57", "58"]);
const UNAVAILABLE_STATES = new Set(["26000", "42P05"]);

/**
 * Whether `error` says the database could not be reached or used for now (so retrying later may
 * succeed), as opposed to refusing this statement for its data: what a catch that records a
 * row's failure must not mistake for the row's fault.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const failure = driverFailure(error);
  if (!failure) return false;
  const { code } = failure;
  if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || failure.pgliteGone) return true;
  return failure.sqlState && UNAVAILABLE_CLASSES.has(code.slice(0, 2)) && code !== "57014";
}

/**
 * Why the database failed, for an operator: the driver's message and code, never Drizzle's
 * wrapper (its message lists the statement's parameters, a key's hash among them).
 */
export function describeDatabaseFailure(error: unknown): string {
  const driver = driverErrorOf(error) as { code?: unknown; message?: unknown } | null;
  const message = typeof driver?.message === "string" ? driver.message.split("\n")[0] : String(driver);
  const code = typeof driver?.code === "string" ? ` (${driver.code})` : "";
  return `${message}${code}`;
}

/**
 * The answer to a credential check the database could not make: 503 saying so and why, never
 * "unknown key" or "not signed in" (a client would discard a good key; an operator would look
 * for the fault in the wrong place). Other errors (a bug) are returned as they are: a 500.
 */
export function credentialCheckFailure(error: unknown, what: string): unknown {
  if (!isDatabaseFailure(error)) return error;
  const unavailable = new ServiceUnavailableError(
    `${what} could not be checked: the database could not be reached or queried (${describeDatabaseFailure(error)}); retry, and see the server log`,
    "database_unavailable",
  );
  unavailable.cause = error;
  return unavailable;
}
