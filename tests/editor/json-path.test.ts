import { describe, expect, it } from "vitest";
import { formatPath, getIn, parsePath, setIn } from "@/components/editor/json-path";
import { deepEqual } from "@/components/editor/deep-equal";

describe("json paths", () => {
  it("formats and parses the server's path format", () => {
    expect(formatPath(["tools", 0, "name"])).toBe("tools[0].name");
    expect(formatPath([])).toBe("");
    expect(formatPath(["mcps", 1, "connection", "headers", "X Token"])).toBe('mcps[1].connection.headers["X Token"]');
    expect(parsePath("tools[0].name")).toEqual(["tools", 0, "name"]);
    expect(parsePath('a["X Token"].b')).toEqual(["a", "X Token", "b"]);
    expect(parsePath("")).toEqual([]);
  });

  it("reads nested values and misses gracefully", () => {
    const value = { llm: { model: "gpt-5" }, tools: [{ name: "read" }] };
    expect(getIn(value, ["llm", "model"])).toBe("gpt-5");
    expect(getIn(value, ["tools", 0, "name"])).toBe("read");
    expect(getIn(value, ["tools", "0"])).toBeUndefined();
    expect(getIn(value, ["nope", "deeper"])).toBeUndefined();
  });

  it("writes immutably, keeps key order, creates what is missing and removes on undefined", () => {
    const value = { instructions: { agents_md: "hi" }, llm: { model: "a", provider: "openai" } };
    const next = setIn(value, ["llm", "model"], "b") as typeof value;
    expect(next).not.toBe(value);
    expect(value.llm.model).toBe("a");
    expect(Object.keys(next.llm)).toEqual(["model", "provider"]);
    expect(next.instructions).toBe(value.instructions);
    expect(setIn({}, ["runner", "permissions", "default"], "ask")).toEqual({
      runner: { permissions: { default: "ask" } },
    });
    expect(setIn({ a: { b: 1, c: 2 } }, ["a", "b"], undefined)).toEqual({ a: { c: 2 } });
    expect(setIn({ t: [1, 2] }, ["t", 1], 3)).toEqual({ t: [1, 3] });
  });

  it("compares JSON structurally, ignoring key order", () => {
    expect(deepEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});
