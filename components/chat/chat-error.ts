import { errorText } from "@/shared/error-text";

/**
 * The transport throws the response text of a refused request as the error message; the server's
 * JSON error says what to do in `detail` (and which fields in `errors`), so show that instead.
 */
export function chatErrorMessage(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { detail?: unknown; errors?: Array<{ path?: string; message?: string }> };
    const detail = errorText(body);
    if (detail === undefined) return error.message;
    const fields = (body.errors ?? []).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).filter(Boolean);
    return fields.length ? `${detail} (${fields.join("; ")})` : detail;
  } catch {
    return error.message || "The agent could not be reached.";
  }
}
