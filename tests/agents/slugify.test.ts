import { describe, expect, it } from "vitest";
import { SLUG_MAX, SLUG_PATTERN, slugify } from "@/shared/slug-rules";

describe("slugify", () => {
  it.each([
    ["My Agent v2!", "my-agent-v2"],
    ["  Ünïcode  naming ", "unicode-naming"],
    ["Агент поддержки", "agent-podderzhki"],
    ["客服助手", "ke-fu-zhu-shou"],
    ["Ελληνικός βοηθός", "ellinikos-voithos"],
    ["サポート", "sapoto"],
    ["Straße & Café", "strasse-cafe"],
    ["Support 客服 bot", "support-ke-fu-bot"],
  ])("%s -> %s", (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(slug).toMatch(SLUG_PATTERN);
  });

  it("is empty when nothing readable is left, so the server picks a random slug", () => {
    expect(slugify("😀🎉")).toBe("");
    expect(slugify("---")).toBe("");
  });

  it("stays within the slug limit and never ends on a dash", () => {
    const slug = slugify("очень длинное имя ".repeat(30));
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX - 8);
    expect(slug).toMatch(SLUG_PATTERN);
  });
});
