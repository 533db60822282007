/**
 * The text of one of the service's JSON error bodies: `detail` is that text, or, on the
 * conditions the reference answers with an object, `{message, ...}` (server/http/error-response.ts).
 * Every client of ours reads an error through this, so both forms read the same.
 */
export function errorText(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail === "string") return detail;
  if (detail && typeof detail === "object") {
    const message = (detail as { message?: unknown }).message;
    if (typeof message === "string") return message;
  }
  return undefined;
}
