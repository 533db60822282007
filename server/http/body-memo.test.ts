import { describe, expect, it } from "vitest";
import { BodyMemo } from "./body-memo";

describe("BodyMemo", () => {
  it("keeps small bodies' parsed values, frozen all the way down", () => {
    const memo = new BodyMemo();
    const text = memo.textOf(Buffer.from('{"ref":{"slug":"a"}}'))!;
    expect(memo.get(text)).toBeUndefined();
    memo.set(text, { ref: { slug: "a" }, list: [{ n: 1 }] });
    const value = memo.get(text) as { ref: { slug: string }; list: { n: number }[] };
    expect(value).toEqual({ ref: { slug: "a" }, list: [{ n: 1 }] });
    expect(() => {
      value.ref.slug = "b";
    }).toThrow(TypeError);
    expect(() => value.list.push({ n: 2 })).toThrow(TypeError);
  });

  it("passes over large or absent bodies, and forgets the oldest past its bound", () => {
    const memo = new BodyMemo();
    expect(memo.textOf(undefined)).toBeUndefined();
    expect(memo.textOf(Buffer.alloc(4096, 32))).toBeUndefined();
    for (let i = 0; i < 600; i++) memo.set(`{"n":${i}}`, { n: i });
    expect(memo.get('{"n":0}')).toBeUndefined();
    expect(memo.get('{"n":599}')).toEqual({ n: 599 });
  });
});
