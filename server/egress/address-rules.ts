import { cidrContains, parseCidr, type Cidr } from "./cidr";
import { embeddedIpv4, type IpAddress } from "./ip-address";

interface Rule {
  range: Cidr;
  reason: string;
  /** The range carries an IPv4 address in its low 32 bits, which is judged instead. */
  embedsIpv4?: boolean;
}

const rule = (cidr: string, reason: string, embedsIpv4 = false): Rule => ({
  range: parseCidr(cidr)!,
  reason,
  embedsIpv4,
});

/**
 * Addresses a user-supplied URL may not reach unless allow-listed: everything that is not the
 * public internet (RFC 6890 special-purpose ranges), including cloud metadata endpoints
 * (169.254.169.254 and fd00:ec2::254 fall in link-local and ULA).
 */
const RULES: Rule[] = [
  rule("0.0.0.0/8", "unspecified address"),
  rule("10.0.0.0/8", "private address"),
  rule("100.64.0.0/10", "carrier-grade NAT address"),
  rule("127.0.0.0/8", "loopback address"),
  rule("169.254.169.254/32", "cloud metadata address"),
  rule("169.254.0.0/16", "link-local address"),
  rule("172.16.0.0/12", "private address"),
  rule("192.0.0.0/24", "IETF protocol assignment"),
  rule("192.0.2.0/24", "documentation address"),
  rule("192.168.0.0/16", "private address"),
  rule("198.18.0.0/15", "benchmarking address"),
  rule("198.51.100.0/24", "documentation address"),
  rule("203.0.113.0/24", "documentation address"),
  rule("224.0.0.0/4", "multicast address"),
  rule("240.0.0.0/4", "reserved address"),
  rule("::/128", "unspecified address"),
  rule("::1/128", "loopback address"),
  rule("::ffff:0:0/96", "IPv4-mapped IPv6 address"),
  rule("::/96", "IPv4-compatible IPv6 address"),
  rule("64:ff9b::/96", "NAT64 address", true),
  rule("64:ff9b:1::/48", "local NAT64 address"),
  rule("100::/64", "discard-only address"),
  rule("2001:db8::/32", "documentation address"),
  rule("2002::/16", "6to4 address", true),
  rule("fd00:ec2::254/128", "cloud metadata address"),
  rule("fc00::/7", "unique local address"),
  rule("fe80::/10", "link-local address"),
  rule("fec0::/10", "site-local address"),
  rule("ff00::/8", "multicast address"),
];

/** Why the address is refused, or undefined when it is a public address. */
export function refusalReason(address: IpAddress): string | undefined {
  for (const r of RULES) {
    if (!cidrContains(r.range, address)) continue;
    if (!r.embedsIpv4) return r.reason;
    // NAT64 and 6to4 of a public IPv4 address are public; of a private one they are not.
    const inner =
      r.range.prefix === 16
        ? { version: 4 as const, value: (address.value >> 80n) & 0xffffffffn }
        : embeddedIpv4(address);
    const innerReason = refusalReason(inner);
    return innerReason ? `${r.reason} of a ${innerReason}` : undefined;
  }
  return undefined;
}
