import { BlockList, isIP } from "node:net";

/**
 * The proxies the operator declares (TRUSTED_PROXIES): addresses and CIDR ranges whose
 * `X-Forwarded-For` is believed. Node's BlockList does the matching (IPv4, IPv6, mapped IPv4).
 */
export class TrustedProxies {
  private readonly list = new BlockList();

  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split("/");
      const family = isIP(address) === 6 ? "ipv6" : "ipv4";
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  has(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    return this.list.check(address, family === 6 ? "ipv6" : "ipv4");
  }
}

/** A comma-separated list of IPs and CIDR ranges, or the first entry that is neither. */
export function parseTrustedProxies(value: string): TrustedProxies | { error: string } {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !validPrefix || rest.length)
      return {
        error: `TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (for example 10.0.0.0/8,192.168.1.10)`,
      };
  }
  return new TrustedProxies(entries);
}
