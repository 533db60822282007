import { describe, expect, it } from "vitest";
import { isSelectorTemplate, resolveSelectorTemplate, unevaluatedSelector } from "./selector-template";

const context = { event: { timestamp: "t", attributes: { items: [{ id: 1 }, { id: 2 }], "a/b": "slash" } } };

describe("resolveSelectorTemplate", () => {
  it("reads JSONPath and JSON Pointer leaves, keeps other values, and gives null for no match", () => {
    expect(
      resolveSelectorTemplate(
        {
          now: "$.event.timestamp",
          ids: "$.event.attributes.items[*].id",
          pointer: "/event/attributes/a~1b",
          nested: { first: "/event/attributes/items/0/id", list: ["$.event.timestamp", 7] },
          none: "$.event.nope",
          noPointer: "/event/constructor",
          text: "plain",
        },
        context,
      ),
    ).toEqual({
      now: "t",
      ids: [1, 2],
      pointer: "slash",
      nested: { first: 1, list: ["t", 7] },
      none: null,
      noPointer: null,
      text: "plain",
    });
  });

  it("wraps a result that is not an object, and runs no script expression", () => {
    expect(resolveSelectorTemplate("$.event.timestamp", context)).toEqual({ value: "t" });
    expect(resolveSelectorTemplate("$", context)).toEqual(context);
    expect(() => resolveSelectorTemplate("$..items[?(@.id > 1)]", context)).toThrow();
    expect(unevaluatedSelector({ a: ["$.x", "$..items[?(@.id > 1)]"] })).toBe("$..items[?(@.id > 1)]");
    expect(unevaluatedSelector({ a: "$.x", b: "(text)" })).toBeUndefined();
  });

  it("tells a template from the service's own input", () => {
    expect(isSelectorTemplate({ now: "$.event.timestamp" })).toBe(true);
    expect(isSelectorTemplate("$")).toBe(true);
    expect(isSelectorTemplate({ messages: [] })).toBe(false);
    expect(isSelectorTemplate({ inputs: {} })).toBe(false);
    expect(isSelectorTemplate(undefined)).toBe(false);
  });
});
