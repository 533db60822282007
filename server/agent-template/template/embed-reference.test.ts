import { describe, expect, it } from "vitest";
import { isEmbedReference } from "./embed-reference";

describe("isEmbedReference", () => {
  it("recognises an embed reference", () => {
    const embed = {
      "@svc.embed": { "@svc.references": { workflow: { slug: "w" } }, "@svc.selector": { path: "parameters.skill" } },
    };
    expect(isEmbedReference(embed)).toBe(true);
  });

  it.each([
    ["an inline tool", { type: "builtin", name: "read" }],
    ["a null embed", { "@svc.embed": null }],
    ["an array embed", { "@svc.embed": [] }],
    ["a string", "@svc.embed"],
    ["null", null],
    ["an array", [{ "@svc.embed": {} }]],
  ])("rejects %s", (_label, value) => {
    expect(isEmbedReference(value)).toBe(false);
  });
});
