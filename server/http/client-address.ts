import { isIP } from "node:net";
import type { TrustedProxies } from "@/server/core/trusted-proxies";

/**
 * The client's address: the socket's peer, unless that peer is a proxy the operator trusts, in
 * which case `X-Forwarded-For` is walked from the right (each trusted proxy appends the address
 * it saw) to the first hop that is not a trusted proxy. Entries further left were written by the
 * client and are never believed. Without a socket (the Next.js route), the platform's last hop
 * stands for the peer, when the platform is known to set it or proxies are declared; else the
 * address is unknown.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null,
  trusted: TrustedProxies,
  platformForwarding = false,
): string | undefined {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((hop) => unmapped(hop.trim()))
    .filter(Boolean);
  let address = peer === undefined ? undefined : unmapped(peer);
  if (address === undefined) {
    if (!platformForwarding && trusted.entries.length === 0) return undefined;
    address = hops.pop();
  }
  while (address !== undefined && trusted.has(address) && hops.length) address = hops.pop();
  return address !== undefined && isIP(address) ? address : undefined;
}

/** `::ffff:10.1.2.3` (an IPv4 client on a dual-stack socket) as `10.1.2.3`. */
const unmapped = (address: string) =>
  address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
