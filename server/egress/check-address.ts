import { addressAllowed, hostAllowed, type AllowlistEntry } from "./allowlist";
import { refusalReason } from "./address-rules";
import { formatIp, parseIp } from "./ip-address";

/**
 * Why connecting to `address` (reached through the name `host`) is refused, or undefined when it
 * is allowed: public addresses always, others when the host name or the address is allow-listed.
 */
export function addressRefusal(allowlist: AllowlistEntry[], host: string, address: string): string | undefined {
  const ip = parseIp(address);
  if (!ip) return `${address} is not an IP address`;
  if (hostAllowed(allowlist, host) || addressAllowed(allowlist, ip)) return undefined;
  const reason = refusalReason(ip);
  if (!reason) return undefined;
  const literal = host === address || host === `[${address}]`;
  return literal ? `${host} is a ${reason}` : `${host} resolves to ${formatIp(ip)}, a ${reason}`;
}
