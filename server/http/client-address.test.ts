import { describe, expect, it } from "vitest";
import { parseTrustedProxies, TrustedProxies } from "@/server/core/trusted-proxies";
import { clientAddress } from "./client-address";

const trusted = (value: string) => {
  const parsed = parseTrustedProxies(value);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
};
const none = new TrustedProxies([]);

describe("clientAddress", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", none)).toBe("203.0.113.7");
    expect(clientAddress("::ffff:203.0.113.7", null, none)).toBe("203.0.113.7");
  });

  it("believes X-Forwarded-For only as far as trusted proxies appended it", () => {
    const proxies = trusted("10.0.0.0/8, 192.168.1.10");
    // The client wrote the leftmost entry itself; the load balancer (10.0.0.5) appended the last one.
    expect(clientAddress("10.0.0.5", "6.6.6.6, 198.51.100.9", proxies)).toBe("198.51.100.9");
    // Two trusted hops: the nginx at 192.168.1.10 behind the load balancer.
    expect(clientAddress("192.168.1.10", "6.6.6.6, 198.51.100.9, 10.0.0.5", proxies)).toBe("198.51.100.9");
    // A peer that is not a trusted proxy cannot name anyone else.
    expect(clientAddress("203.0.113.7", "198.51.100.9", proxies)).toBe("203.0.113.7");
    // A trusted proxy that forwarded nothing is the client itself.
    expect(clientAddress("10.0.0.5", null, proxies)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", "not-an-address", proxies)).toBeUndefined();
  });

  it("without a socket, uses the platform's last hop only when told the platform sets it", () => {
    expect(clientAddress(undefined, "6.6.6.6, 198.51.100.9", none)).toBeUndefined();
    expect(clientAddress(undefined, "198.51.100.9", none, true)).toBe("198.51.100.9");
    expect(clientAddress(undefined, "6.6.6.6, 198.51.100.9, 10.0.0.5", trusted("10.0.0.0/8"))).toBe("198.51.100.9");
  });
});

describe("parseTrustedProxies", () => {
  it("takes addresses and CIDR ranges of both families and names the first bad entry", () => {
    const proxies = trusted("10.0.0.0/8,2001:db8::/32, 127.0.0.1");
    expect(proxies.has("10.200.3.4")).toBe(true);
    expect(proxies.has("2001:db8::1")).toBe(true);
    expect(proxies.has("127.0.0.1")).toBe(true);
    expect(proxies.has("11.0.0.1")).toBe(false);
    expect(proxies.has("garbage")).toBe(false);
    for (const bad of ["10.0.0.0/33", "proxy.internal", "10.0.0.1/8/1", "::1/129"])
      expect(parseTrustedProxies(bad)).toEqual({ error: expect.stringContaining(`"${bad}"`) });
  });
});
