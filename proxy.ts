import { NextResponse, type NextRequest } from "next/server";
import { loadConfig } from "@/server/core/config";
import {
  apiSecurityHeaders,
  newNonce,
  pageSecurityHeaders,
  securityHeaderSettings,
  type SecurityHeaderSettings,
} from "@/server/core/security-headers";

let settings: SecurityHeaderSettings | undefined;

function currentSettings(): SecurityHeaderSettings {
  settings ??= { ...securityHeaderSettings(loadConfig()), development: process.env.NODE_ENV === "development" };
  return settings;
}

/**
 * The security headers of what Next.js serves (server/core/security-headers.ts): a page gets a
 * Content-Security-Policy with a fresh nonce, passed on in the request's own CSP header (Next.js
 * reads the nonce from it and puts it on every script it renders) and in `x-nonce` (the theme
 * script in app/layout.tsx). The tRPC endpoint gets the API's headers.
 */
export function proxy(request: NextRequest): NextResponse {
  if (request.nextUrl.pathname.startsWith("/api/")) {
    const response = NextResponse.next();
    for (const [name, value] of Object.entries(apiSecurityHeaders(currentSettings())))
      response.headers.set(name, value);
    return response;
  }
  const nonce = newNonce();
  const headers = pageSecurityHeaders(nonce, currentSettings());
  const forwarded = new Headers(request.headers);
  forwarded.set("x-nonce", nonce);
  forwarded.set("content-security-policy", headers["content-security-policy"]);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Not static chunks (hashed files), and not the router's paths: their bodies must not pass
  // through a proxy (Next.js buffers at most 10 MB of them there); next.config.ts gives those
  // their headers under `next dev` and on Vercel, server/boot/front.ts on the production server.
  matcher: ["/((?!_next/static|_next/image|v1(?:/|$)|services/|api(?:/(?!trpc)|$)).*)"],
};
