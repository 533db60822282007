import { describe, expect, it } from "vitest";
import { mcpToolName } from "./mcp-tool-name";

const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

describe("mcpToolName", () => {
  it("keeps <server>__<tool> when every provider accepts it", () => {
    expect(mcpToolName("docs", "search")).toBe("docs__search");
    expect(mcpToolName("my-server_2", "get-issue")).toBe("my-server_2__get-issue");
  });

  it("makes unsafe names safe, deterministic and distinct from the names they resemble", () => {
    const dotted = mcpToolName("a.b", "c");
    expect(dotted).toMatch(SAFE);
    expect(dotted).toMatch(/^a_b__c_[0-9a-f]{8}$/);
    expect(dotted).toBe(mcpToolName("a.b", "c"));
    expect(dotted).not.toBe(mcpToolName("a_b", "c"));
    expect(mcpToolName("docs", "files/read")).not.toBe(mcpToolName("docs", "files.read"));
    expect(mcpToolName("docs", "ünïcode tool")).toMatch(SAFE);
  });

  it("fits 64 characters and starts with a letter or underscore", () => {
    const long = mcpToolName("s".repeat(128), "t".repeat(128));
    expect(long).toMatch(SAFE);
    expect(long).toHaveLength(64);
    expect(long).not.toBe(mcpToolName("s".repeat(128), `${"t".repeat(127)}u`));
    expect(mcpToolName("1password", "get")).toMatch(/^_1password__get_[0-9a-f]{8}$/);
    expect(mcpToolName(".hidden", "x")).toMatch(/^[A-Za-z_]/);
  });
});
