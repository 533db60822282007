import { describe, expect, it } from "vitest";
import { addressRefusal, parseAllowlist, urlRefusal } from "@/server/egress";

const none = { allowlist: [] };
const allow = (list: string) => {
  const parsed = parseAllowlist(list);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.entries;
};

describe("address rules", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fd12:3456::1", "unique local"],
    ["fd00:ec2::254", "cloud metadata"],
    ["::ffff:127.0.0.1", "IPv4-mapped"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["::ffff:7f00:1", "IPv4-mapped"],
    ["64:ff9b::a00:1", "NAT64 address of a private"],
    ["2002:7f00:1::1", "6to4 address of a loopback"],
    ["ff02::1", "multicast"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(addressRefusal([], address, address)).toContain(reason);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("accepts the public address %s", (address) => {
    expect(addressRefusal([], address, address)).toBeUndefined();
  });

  it("allows listed hosts, addresses and ranges, and nothing else", () => {
    const list = allow("localhost, 10.0.0.0/8, ::1, hooks.internal.");
    expect(addressRefusal(list, "localhost", "127.0.0.1")).toBeUndefined();
    expect(addressRefusal(list, "HOOKS.internal", "192.168.0.5")).toBeUndefined();
    expect(addressRefusal(list, "x", "10.200.0.1")).toBeUndefined();
    expect(addressRefusal(list, "x", "::1")).toBeUndefined();
    expect(addressRefusal(list, "x", "127.0.0.1")).toBe("x resolves to 127.0.0.1, a loopback address");
    expect(addressRefusal(list, "x", "11.0.0.1")).toBeUndefined();
  });

  it("rejects malformed allowlist items with the item named", () => {
    expect(parseAllowlist("localhost, 10.0.0.0/33")).toEqual({ error: expect.stringContaining('"10.0.0.0/33"') });
    expect(parseAllowlist("http://x")).toEqual({ error: expect.stringContaining('"http://x"') });
  });
});

describe("URL validation at creation time", () => {
  it.each([
    ["http://example.com/hook", "must use https"],
    ["ftp://example.com/", "must use https"],
    ["not a url", "is not a valid absolute URL"],
    ["https://user:pw@example.com/", "must not contain credentials"],
    ["https://127.0.0.1/", "loopback"],
    ["https://2130706433/", "loopback"],
    ["https://0x7f.1/", "loopback"],
    ["https://127.1/", "loopback"],
    ["https://[::1]/", "loopback"],
    ["https://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["https://[fe80::1%25eth0]/", "is not a valid absolute URL"],
    ["https://169.254.169.254/latest/meta-data", "cloud metadata"],
    ["https://localhost:8443/", "loopback name"],
    ["https://a.localhost/", "loopback name"],
  ])("refuses %s", (url, reason) => {
    expect(urlRefusal(url, { ...none, httpsOnly: true })).toContain(reason);
  });

  it("accepts public https URLs, and private ones only when listed", () => {
    expect(urlRefusal("https://example.com/hook?x=1", { ...none, httpsOnly: true })).toBeUndefined();
    expect(urlRefusal("http://example.com/", none)).toBeUndefined();
    expect(urlRefusal("https://localhost:8443/", { allowlist: allow("localhost"), httpsOnly: true })).toBeUndefined();
    expect(urlRefusal("https://127.0.0.1/", { allowlist: allow("127.0.0.0/8"), httpsOnly: true })).toBeUndefined();
  });
});
