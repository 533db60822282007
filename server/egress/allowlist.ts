import { cidrContains, parseCidr, type Cidr } from "./cidr";
import type { IpAddress } from "./ip-address";

/** One `EGRESS_ALLOWLIST` item: a host name (exact, case-insensitive) or an address range. */
export type AllowlistEntry = { kind: "host"; host: string } | { kind: "cidr"; cidr: Cidr; text: string };

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/** Parses "localhost, 10.0.0.0/8, ::1, hooks.internal"; names the first item that is none of these. */
export function parseAllowlist(value: string): { entries: AllowlistEntry[] } | { error: string } {
  const entries: AllowlistEntry[] = [];
  for (const item of value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const cidr = parseCidr(item);
    if (cidr) entries.push({ kind: "cidr", cidr, text: item });
    else if (!item.includes("/") && HOST_NAME.test(item)) entries.push({ kind: "host", host: normalizeHost(item) });
    else return { error: `EGRESS_ALLOWLIST: "${item}" is not a host name, an IP address or a CIDR range` };
  }
  return { entries };
}

export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "");
}

export function hostAllowed(allowlist: AllowlistEntry[], host: string): boolean {
  const name = normalizeHost(host);
  return allowlist.some((e) => e.kind === "host" && e.host === name);
}

export function addressAllowed(allowlist: AllowlistEntry[], address: IpAddress): boolean {
  return allowlist.some((e) => e.kind === "cidr" && cidrContains(e.cidr, address));
}
