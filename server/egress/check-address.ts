import { addressAllowed, hostAllowed, type AllowlistEntry } from "./allowlist";
import { refusalReason } from "./address-rules";
import { cidrContains, type Cidr } from "./cidr";
import { formatIp, parseIp } from "./ip-address";

/**
 * Why connecting to `address` (reached through the name `host`) is refused, or undefined when it
 * is allowed: public addresses always, others when the host name or the address is allow-listed.
 * With `restrictTo`, the address must also lie in one of those ranges.
 */
export function addressRefusal(
  allowlist: AllowlistEntry[],
  host: string,
  address: string,
  restrictTo?: Cidr[],
): string | undefined {
  const ip = parseIp(address);
  if (!ip) return `${address} is not an IP address`;
  if (restrictTo && !restrictTo.some((cidr) => cidrContains(cidr, ip)))
    return `${host} (${formatIp(ip)}) is outside the sandbox network allowlist`;
  if (hostAllowed(allowlist, host) || addressAllowed(allowlist, ip)) return undefined;
  const reason = refusalReason(ip);
  if (!reason) return undefined;
  const literal = host === address || host === `[${address}]`;
  return literal ? `${host} is ${withArticle(reason)}` : `${host} resolves to ${formatIp(ip)}, ${withArticle(reason)}`;
}

function withArticle(noun: string): string {
  return /^[aeiouAEIOU]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}
