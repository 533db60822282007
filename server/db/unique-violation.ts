/** PostgreSQL's unique_violation: an insert or update met a unique index. */
const UNIQUE_VIOLATION = "23505";

/**
 * Whether a failed query met a unique index: the driver's error, or one wrapping it (drizzle puts
 * the driver's error in `cause`), up to four levels down. The one check for it: the HTTP error
 * mapping (a 409 `duplicate`) and the stores that name the duplicate themselves use it.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
