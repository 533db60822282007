import { describe, expect, it } from "vitest";
import { storableJson } from "./storable-text";

describe("storable text", () => {
  const lone = "\uD800";
  it("makes JSON storable in keys and values, and leaves clean JSON unchanged", () => {
    const value = { [`k\0${lone}`]: [`a\0b`, `c${lone}d`, "\\u0000 stays", "😀"], n: 1 };
    expect(JSON.parse(storableJson(value))).toEqual({ [`k\uFFFD`]: ["ab", "c\uFFFDd", "\\u0000 stays", "😀"], n: 1 });
    const clean = { a: "text", b: [1, "\\"] };
    expect(storableJson(clean)).toBe(JSON.stringify(clean));
  });
});
