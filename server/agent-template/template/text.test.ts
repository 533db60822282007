import { describe, expect, it } from "vitest";
import { boundedText, codePointLength } from "./text";

describe("boundedText", () => {
  it("counts code points, as JSON Schema does", () => {
    expect(codePointLength("😀😀")).toBe(2);
    expect("😀😀".length).toBe(4);
    expect(boundedText(1, 2).safeParse("😀😀").success).toBe(true);
    expect(boundedText(1, 2).safeParse("😀😀😀").success).toBe(false);
  });

  it("says how long the text was", () => {
    const result = boundedText(0, 3).safeParse("abcd");
    expect(result.error?.issues[0]?.message).toBe("must be at most 3 characters; got 4");
  });
});
