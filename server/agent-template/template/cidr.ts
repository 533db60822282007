import { z } from "zod";

const strip = (pattern: RegExp) => pattern.source.replace(/^\^/, "").replace(/\$$/, "");

/** IPv4 or IPv6 CIDR range, as one pattern so the catalog schema carries it. */
const CIDR = new RegExp(`^(?:${strip(z.regexes.cidrv4)}|${strip(z.regexes.cidrv6)})$`);

export function cidrRange() {
  return z.string().regex(CIDR, 'must be a CIDR range such as "10.0.0.0/8" or "fd00::/8"');
}
