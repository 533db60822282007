import net from "node:net";

/** An IP address as a 32-bit (IPv4) or 128-bit (IPv6) integer, so ranges compare numerically. */
export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

/** Parses an IP literal (URL brackets and IPv6 zone ids tolerated); undefined when it is not one. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const unzoned = bare.split("%")[0];
  const kind = net.isIP(unzoned);
  if (kind === 4) return { version: 4, value: ipv4ToBigInt(unzoned) };
  if (kind === 6) return { version: 6, value: ipv6ToBigInt(unzoned) };
  return undefined;
}

function ipv4ToBigInt(text: string): bigint {
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigInt(text: string): bigint {
  let groups = text;
  // A trailing dotted quad ("::ffff:127.0.0.1") is two 16-bit groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (quad) {
    const v4 = ipv4ToBigInt(quad[1]);
    groups = groups.slice(0, -quad[1].length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = groups.includes("::") ? groups.split("::") : [groups, undefined];
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array(tail === undefined ? 0 : missing).fill("0"), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part, 16)), 0n);
}

/** The IPv4 address inside an IPv6 value (its low 32 bits). */
export function embeddedIpv4(address: IpAddress): IpAddress {
  return { version: 4, value: address.value & 0xffffffffn };
}

export function formatIp(address: IpAddress): string {
  if (address.version === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => ((address.value >> shift) & 0xffn).toString()).join(".");
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((address.value >> shift) & 0xffffn).toString(16));
  return groups.join(":");
}
