import { describe, expect, it } from "vitest";
import { daytonaBoundary } from "./daytona-boundary";
import { daytonaCommand } from "./daytona-command";
import { daytonaExtras, extrasFingerprint } from "./daytona-extras";

const permissions = (
  network: object,
  enforcement: "strict" | "best_effort" = "strict",
  filesystem: "on" | "readonly" | null = null,
) => ({ network: { mode: "on", allowlist: [], ...network }, enforcement, filesystem }) as never;

describe("daytonaBoundary", () => {
  it("blocks all egress when nothing is declared or the network is off, opens it for on", () => {
    expect(daytonaBoundary(null)).toEqual({ network: { networkBlockAll: true, networkAllowList: "" }, notApplied: [] });
    expect(daytonaBoundary(permissions({ mode: "off" })).network).toEqual({
      networkBlockAll: true,
      networkAllowList: "",
    });
    expect(daytonaBoundary(permissions({ mode: "on" })).network).toEqual({
      networkBlockAll: false,
      networkAllowList: "",
    });
  });

  it("turns an allowlist into Daytona's IPv4 list of at most five; an empty list allows nothing", () => {
    expect(
      daytonaBoundary(permissions({ mode: "allowlist", allowlist: ["10.0.0.0/8", "192.0.2.1/32"] })).network,
    ).toEqual({ networkBlockAll: false, networkAllowList: "10.0.0.0/8,192.0.2.1/32" });
    expect(daytonaBoundary(permissions({ mode: "allowlist", allowlist: [] })).network.networkBlockAll).toBe(true);
    const six = ["1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8", "5.0.0.0/8", "6.0.0.0/8"];
    expect(() => daytonaBoundary(permissions({ mode: "allowlist", allowlist: six }))).toThrow(/at most 5 ranges/);
    const relaxed = daytonaBoundary(
      permissions({ mode: "allowlist", allowlist: [...six, "fd00::/8"] }, "best_effort", "readonly"),
    );
    expect(relaxed.network.networkAllowList.split(",")).toHaveLength(5);
    expect(relaxed.notApplied).toEqual([
      expect.stringContaining("filesystem"),
      expect.stringContaining('"6.0.0.0/8"'),
      expect.stringContaining("IPv4 ranges only"),
    ]);
  });
});

describe("daytonaExtras", () => {
  it("passes creation settings on, refuses what the service decides, and fingerprints canonically", () => {
    expect(daytonaExtras({ snapshot: "s", labels: { team: "a" } })).toEqual({ snapshot: "s", labels: { team: "a" } });
    expect(() => daytonaExtras({ networkBlockAll: false })).toThrow(/sandbox\.permissions\.network/);
    expect(() => daytonaExtras({ snapshot: "s", image: "i" })).toThrow(/not both/);
    expect(() => daytonaExtras({ cpu: 2 })).toThrow(/accepts snapshot, image/);
    expect(extrasFingerprint({ snapshot: "s", labels: { a: "1", b: "2" } })).toBe(
      extrasFingerprint({ labels: { b: "2", a: "1" }, snapshot: "s" }),
    );
    expect(extrasFingerprint({ snapshot: "s" })).not.toBe(extrasFingerprint({ snapshot: "t" }));
  });
});

describe("daytonaCommand", () => {
  it("is one bash -c argument whatever the script holds, with the environment and memory cap before the command", () => {
    const line = daytonaCommand(`echo "it's" | grep -c '"' && cat`, {
      env: { WORK: "a'b" },
      stdin: "{}",
      memoryMb: 64,
    });
    // Daytona's daemon: split on spaces, quotes group, no escapes.
    const args = line.match(/'[^']*'|"[^"]*"|[^ ]+/g)!;
    expect(args.slice(0, 2)).toEqual(["bash", "-c"]);
    expect(args).toHaveLength(3);
    const encoded = /echo ([A-Za-z0-9+/=]+) \| base64 -d\) </.exec(line)![1];
    expect(Buffer.from(encoded, "base64").toString("utf8")).toBe(
      `export WORK='a'\\''b'\nulimit -v 65536\necho "it's" | grep -c '"' && cat\n`,
    );
  });
});
