import { minimatch } from "minimatch";
import { describe, expect, it } from "vitest";
import { globMatch } from "./glob-match";

describe("globMatch", () => {
  const globs = [
    "src/**/a.ts",
    "src/**",
    "src/*",
    "*.ts",
    "**/*.ts",
    "a?c",
    "[abc]x",
    "[!abc]x",
    "[a-c]*",
    "{src,lib}/*.ts",
    "rm *",
    "*a*a*b",
    "git {push,pull}*",
    ".env*",
    "x\\*y",
    "**",
  ];
  const texts = [
    "src/a.ts",
    "src/xa.ts",
    "src/b/a.ts",
    "src/deep/a.ts",
    "lib/b.ts",
    "docs/a.md",
    "a.ts",
    "abc",
    "a/c",
    "bx",
    "dx",
    "rm -rf x",
    "aaab",
    "aab",
    "ab",
    "git push origin",
    "git fetch",
    ".env.local",
    "x*y",
    "xay",
    "",
    "/",
  ];
  for (const glob of globs) {
    it(`agrees with minimatch (dot: true) on ${glob}`, () => {
      for (const text of texts)
        expect([text, globMatch(text, glob)]).toEqual([text, minimatch(text, glob, { dot: true })]);
    });
  }

  it("matches a pathological glob against a long text in linear time", () => {
    const glob = `${"*a".repeat(40)}b`;
    const text = "a".repeat(100_000);
    // CPU time, not wall time: other processes' load on the host stretches only the latter.
    const cpu = process.cpuUsage();
    expect(globMatch(text, glob)).toBe(false);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });

  it("matches nothing when braces would expand past the bound", () => {
    expect(globMatch("a", "{a,b}".repeat(10))).toBe(false);
    expect(globMatch("ab", "{a,b}{a,b}")).toBe(true);
  });
});
