import { describe, expect, it } from "vitest";
import { lineOfPath, locateJsonPaths } from "@/components/editor/json-locate";
import { formatTemplate, parseTemplateText, textDiffersFrom } from "@/components/editor/template-text";

describe("template text", () => {
  it("parses, and says where a syntax error is", () => {
    expect(parseTemplateText('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    const bad = parseTemplateText('{\n  "a": 1,\n  }');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.line).toBe(3);
      expect(bad.error.message).not.toMatch(/position/);
    }
    const empty = parseTemplateText("  ");
    expect(empty.ok || empty.error.message).toMatch(/empty/);
  });

  it("is dirty only when the value changed or the text does not parse", () => {
    const base = { a: 1, b: [1, 2] };
    expect(textDiffersFrom(formatTemplate(base), base)).toBe(false);
    expect(textDiffersFrom('{"b":[1,2],"a":1}', base)).toBe(false);
    expect(textDiffersFrom('{"a":2,"b":[1,2]}', base)).toBe(true);
    expect(textDiffersFrom('{"a":', base)).toBe(true);
  });

  it("locates paths to lines, falling back to the nearest written ancestor", () => {
    const text = formatTemplate({
      llm: { model: "x" },
      tools: [{ type: "builtin", name: "read" }, { type: "client" }],
      model: "y",
    });
    expect(lineOfPath(text, "llm.model")).toBe(3);
    expect(lineOfPath(text, "tools[0].name")).toBe(8);
    expect(lineOfPath(text, "tools[1].name")).toBe(10);
    expect(lineOfPath(text, "model")).toBe(14);
    expect(lineOfPath(text, "")).toBe(1);
    expect(lineOfPath("{", "a")).toBeUndefined();
    const positions = locateJsonPaths('{"a": {"b": [true, null, -1.5e3, "s\\"t"]}}');
    expect([...positions.keys()]).toEqual(["", "a", "a.b", "a.b[0]", "a.b[1]", "a.b[2]", "a.b[3]"]);
  });
});

describe("JSON highlighting tokens", () => {
  it("classifies keys, strings, numbers, literals and punctuation, and loses nothing", async () => {
    const { tokenizeJson } = await import("@/components/editor/json-tokens");
    const text = '{\n  "a": "x\\"y",\n  "n": -1.5e3, "t": [true, null]\n}';
    const tokens = tokenizeJson(text);
    expect(tokens.map((t) => t.text).join("")).toBe(text);
    const kinds = tokens.filter((t) => t.kind !== "text").map((t) => `${t.kind}:${t.text}`);
    expect(kinds).toEqual([
      "punctuation:{",
      'key:"a"',
      "punctuation::",
      'string:"x\\"y"',
      "punctuation:,",
      'key:"n"',
      "punctuation::",
      "number:-1.5e3",
      "punctuation:,",
      'key:"t"',
      "punctuation::",
      "punctuation:[",
      "literal:true",
      "punctuation:,",
      "literal:null",
      "punctuation:]",
      "punctuation:}",
    ]);
    const broken = '{"a": "unterminated\n  oops }';
    expect(
      tokenizeJson(broken)
        .map((t) => t.text)
        .join(""),
    ).toBe(broken);
  });
});
