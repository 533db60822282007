import { errorText } from "@/shared/error-text";

/** A same-origin JSON POST that resolves to the body, or throws with the server's `detail`. */
export async function postJson<T = unknown>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : {};
  if (!response.ok) {
    const fieldErrors = Array.isArray(parsed.errors)
      ? parsed.errors.map((e: { path: string; message: string }) => `${e.path}: ${e.message}`)
      : [];
    throw new Error(
      fieldErrors.length
        ? fieldErrors.join("; ")
        : (errorText(parsed) ?? parsed.message ?? `Request failed (${response.status})`),
    );
  }
  return parsed as T;
}
