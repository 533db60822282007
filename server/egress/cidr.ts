import { parseIp, type IpAddress } from "./ip-address";

/** An address range: every address whose first `prefix` bits equal those of `base`. */
export interface Cidr {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

/** Parses "10.0.0.0/8" or "fd00::/8" (a bare address is a /32 or /128); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [addressText, prefixText, extra] = text.split("/");
  if (extra !== undefined) return undefined;
  const address = parseIp(addressText);
  if (!address) return undefined;
  const bits = address.version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? "0") || prefix > bits) return undefined;
  return { version: address.version, base: address.value & mask(address.version, prefix), prefix };
}

function mask(version: 4 | 6, prefix: number): bigint {
  const bits = BigInt(version === 4 ? 32 : 128);
  const all = (1n << bits) - 1n;
  return all ^ ((1n << (bits - BigInt(prefix))) - 1n);
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return cidr.version === address.version && (address.value & mask(cidr.version, cidr.prefix)) === cidr.base;
}
