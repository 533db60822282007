import { describe, expect, it } from "vitest";
import { PathMatcher } from "./path-matcher";

describe("PathMatcher", () => {
  const matcher = new PathMatcher<string>();
  for (const template of [
    "/api/health",
    "/api/{area}/info",
    "/api/applications/revisions/{id}",
    "/api/applications/revisions/query",
    "/api/applications/{id}",
    "/api/workflows/{id}",
    "/api/keys/{id}/revoke",
  ]) {
    matcher.add(template, template);
  }
  const values = (path: string) => matcher.matchAll(path).map((m) => m.value);

  it("matches literal paths and extracts decoded parameters", () => {
    expect(values("/api/health")).toEqual(["/api/health"]);
    expect(matcher.matchAll("/api/keys/a%20b/revoke")).toEqual([
      { value: "/api/keys/{id}/revoke", params: { id: "a b" } },
    ]);
    expect(values("/api/workflows/w1")).toEqual(["/api/workflows/{id}"]);
  });

  it("orders every match from most to least specific, across areas and parameters", () => {
    expect(values("/api/applications/revisions/query")).toEqual([
      "/api/applications/revisions/query",
      "/api/applications/revisions/{id}",
    ]);
    expect(values("/api/applications/info")).toEqual(["/api/applications/{id}", "/api/{area}/info"]);
  });

  it("finds nothing for unknown paths, other lengths and trailing segments", () => {
    expect(values("/api/nothing")).toEqual([]);
    expect(values("/api")).toEqual([]);
    expect(values("/api/health/extra")).toEqual([]);
    expect(values("/other/health")).toEqual([]);
  });

  it("answers a path seen before with the same frozen matches, also past its memory's bound", () => {
    const first = matcher.matchAll("/api/keys/k1/revoke");
    expect(matcher.matchAll("/api/keys/k1/revoke")).toBe(first);
    expect(() => {
      (first[0]!.params as Record<string, string>).id = "other";
    }).toThrow(TypeError);
    for (let i = 0; i < 2000; i++) expect(values(`/api/workflows/w${i}`)).toEqual(["/api/workflows/{id}"]);
    expect(matcher.matchAll("/api/keys/k1/revoke")).toEqual([{ value: "/api/keys/{id}/revoke", params: { id: "k1" } }]);
  });
});
