import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorCodes, statusesOf, type ErrorCode } from "./error-codes";

const root = path.resolve(import.meta.dirname, "../../..");

/** The source files that raise errors: server/ and app/, without tests, this catalog or the list of the framework's codes. */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.endsWith("/core/errors/error-codes.ts") && !file.endsWith("/http/route-errors.ts"));
}

describe("error code catalog", () => {
  const codes = Object.keys(errorCodes) as ErrorCode[];

  it("declares no code that nothing raises (tsc refuses a raised code it does not declare)", () => {
    // A route's `errors: [...]` lists codes its handler raises elsewhere; it raises none itself.
    const text = [...sources("server"), ...sources("app")]
      .map((file) => readFileSync(file, "utf8").replace(/^\s*errors: \[[a-z0-9_",\s]*\],?$/gm, ""))
      .join("\n");
    const unused = codes.filter((code) => !text.includes(`"${code}"`));
    expect(unused).toEqual([]);
  });

  it("gives every code snake_case, an error status and a one-line meaning", () => {
    for (const code of codes) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      for (const status of statusesOf(code)) expect(status, code).toBeGreaterThanOrEqual(400);
      for (const status of statusesOf(code)) expect(status, code).toBeLessThan(600);
      expect(errorCodes[code].meaning, code).toMatch(/^\S[^\n]{10,}$/);
    }
  });
});
