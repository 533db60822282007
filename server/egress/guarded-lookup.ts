import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import type { AllowlistEntry } from "./allowlist";
import { addressRefusal } from "./check-address";
import type { Cidr } from "./cidr";
import { EgressRefusedError } from "./egress-refused-error";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves once and hands the socket only an address that
 * passed the rules: the socket connects to exactly the checked IP, while the URL's host name
 * still provides the Host header and the TLS server name. A name that also resolves to a refused
 * address is refused as a whole, so a rebinding answer cannot be retried into.
 */
export function guardedLookup(allowlist: AllowlistEntry[], restrictTo?: Cidr[]) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, "");
      const refusals = addresses.map((a) => addressRefusal(allowlist, hostname, a.address, restrictTo)).filter(Boolean);
      if (refusals.length > 0) return callback(new EgressRefusedError(refusals[0]!) as NodeJS.ErrnoException, "");
      if (addresses.length === 0)
        return callback(new EgressRefusedError(`${hostname} resolves to no address`) as NodeJS.ErrnoException, "");
      const pinned = addresses[0];
      if (options.all) callback(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    });
  };
}
