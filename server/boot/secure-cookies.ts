import type { Config } from "@/server/core/config";
import type { Reply } from "@/server/http/reply";

/**
 * Whether the client reached a TLS-terminating proxy the operator trusts: the socket's peer is in
 * TRUSTED_PROXIES, or (the Next.js route, no socket) the platform or a declared proxy sets the
 * headers, and `X-Forwarded-Proto` (the first hop's) says https. A client that is no such proxy
 * cannot claim it.
 */
export function forwardedOverTls(
  peer: string | undefined,
  forwardedProto: string | null,
  config: Pick<Config, "trustedProxies" | "platformForwarding">,
): boolean {
  if (forwardedProto?.split(",")[0].trim().toLowerCase() !== "https") return false;
  if (peer === undefined) return config.platformForwarding || config.trustedProxies.entries.length > 0;
  return config.trustedProxies.has(peer.startsWith("::ffff:") ? peer.slice(7) : peer);
}

/**
 * The reply with `Secure` on every cookie it sets. better-auth marks them itself when PUBLIC_URL is
 * https; behind a TLS proxy without PUBLIC_URL only the request says so.
 */
export function withSecureCookies(reply: Reply): Reply {
  if (!(reply instanceof Response)) return reply;
  const cookies = reply.headers.getSetCookie();
  if (!cookies.some((cookie) => !/;\s*secure\s*(;|$)/i.test(cookie))) return reply;
  const headers = new Headers(reply.headers);
  headers.delete("set-cookie");
  for (const cookie of cookies)
    headers.append("set-cookie", /;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`);
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers });
}
