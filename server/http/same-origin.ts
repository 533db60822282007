import { ForbiddenError } from "@/server/core/errors";
import type { HeaderReader } from "./incoming";

/**
 * CSRF defence for everything a browser session can change: a request that says where it comes
 * from (`Origin`, or `Sec-Fetch-Site` when a browser omits Origin) must come from this app's own
 * origin. Browsers always send one of them on a cross-site POST, whatever its content type (a
 * `text/plain` form post included), and a page cannot forge either. Requests with neither come from
 * non-browser clients, which carry no ambient cookies to abuse.
 *
 * The app's origin is PUBLIC_URL's host when set, otherwise the Host the request was sent to
 * (`X-Forwarded-Host` first: a cross-site page cannot set it without a failing CORS preflight).
 */
export function assertSameOrigin(headers: HeaderReader, publicUrl: string | undefined): void {
  const origin = headers.get("origin");
  const expected = publicUrl ? new URL(publicUrl).host : (headers.get("x-forwarded-host") ?? headers.get("host"));
  if (origin !== null) {
    const host = hostOf(origin);
    if (host !== null && expected !== null && host === expected) return;
    throw new ForbiddenError(
      `Cross-site request refused: Origin ${origin} is not this app's origin (${expected ?? "unknown"}). ` +
        "If the app is served behind a proxy under another address, set PUBLIC_URL to that address.",
      "cross_site_request",
    );
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") {
    throw new ForbiddenError(`Cross-site request refused (Sec-Fetch-Site: ${site})`, "cross_site_request");
  }
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
