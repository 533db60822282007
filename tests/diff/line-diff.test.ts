import { describe, expect, it } from "vitest";
import {
  diffJson,
  diffLines,
  diffStats,
  foldUnchanged,
  hasChanges,
  inlineChanges,
  splitLines,
  type DiffRow,
} from "@/components/diff/line-diff";
import { diffSequences } from "@/components/diff/myers";
import { readableJson } from "@/components/diff/readable-json";
import { stableStringify } from "@/shared/stable-json";

/** Compact picture of rows: "  x" unchanged, "- x" removed, "+ x" added, "~ x|y" changed. */
function picture(rows: DiffRow[]): string[] {
  return rows.map((r) =>
    r.kind === "unchanged"
      ? `  ${r.left!.text}`
      : r.kind === "removed"
        ? `- ${r.left!.text}`
        : r.kind === "added"
          ? `+ ${r.right!.text}`
          : `~ ${r.left!.text}|${r.right!.text}`,
  );
}

/** Applies an edit script to a, which must give b. */
function apply<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (const e of diffSequences(a, b)) {
    if (e.type === "equal") {
      expect(a[e.aIndex]).toBe(b[e.bIndex]);
      out.push(a[e.aIndex]);
    } else if (e.type === "insert") out.push(b[e.bIndex]);
  }
  return out;
}

describe("diffSequences (Myers)", () => {
  it("finds the shortest edit script of the classic example", () => {
    const a = "ABCABBA".split("");
    const b = "CBABAC".split("");
    const edits = diffSequences(a, b);
    expect(edits.filter((e) => e.type !== "equal")).toHaveLength(5);
    expect(apply(a, b)).toEqual(b);
  });

  it("handles empty sides and identical inputs", () => {
    expect(diffSequences([], [])).toEqual([]);
    expect(diffSequences(["a"], [])).toEqual([{ type: "delete", aIndex: 0 }]);
    expect(diffSequences([], ["a"])).toEqual([{ type: "insert", bIndex: 0 }]);
    expect(diffSequences(["a", "b"], ["a", "b"]).every((e) => e.type === "equal")).toBe(true);
  });

  it("always produces a script that turns a into b (random inputs)", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const a = Array.from({ length: Math.floor(rand() * 30) }, () => "abcde"[Math.floor(rand() * 5)]);
      const b = Array.from({ length: Math.floor(rand() * 30) }, () => "abcde"[Math.floor(rand() * 5)]);
      const edits = diffSequences(a, b);
      expect(apply(a, b)).toEqual(b);
      expect(edits.filter((e) => e.type !== "insert").length).toBe(a.length);
    }
  });

  it("gives up on a minimal script past maxEdits but stays correct", () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    const edits = diffSequences(a, b, { maxEdits: 10 });
    expect(edits.filter((e) => e.type === "delete")).toHaveLength(50);
    expect(edits.filter((e) => e.type === "insert")).toHaveLength(50);
  });
});

describe("diffLines", () => {
  it("pairs removed and added lines into changed rows, numbering both sides", () => {
    const rows = diffLines("a\nb\nc\nd", "a\nB\nc\nd\ne");
    expect(picture(rows)).toEqual(["  a", "~ b|B", "  c", "  d", "+ e"]);
    expect(rows[1]).toEqual({ kind: "changed", left: { number: 2, text: "b" }, right: { number: 2, text: "B" } });
    expect(rows[4].right).toEqual({ number: 5, text: "e" });
  });

  it("leaves the unpaired rest of a block removed or added", () => {
    expect(picture(diffLines("x\n1\n2\n3\ny", "x\nONE\ny"))).toEqual(["  x", "~ 1|ONE", "- 2", "- 3", "  y"]);
    expect(picture(diffLines("x\ny", "x\n1\n2\ny"))).toEqual(["  x", "+ 1", "+ 2", "  y"]);
  });

  it("treats an empty document as no lines (a first deployment is all additions)", () => {
    expect(splitLines("")).toEqual([]);
    expect(picture(diffLines("", "a\nb"))).toEqual(["+ a", "+ b"]);
    expect(diffStats(diffLines("", "a\nb"))).toEqual({ added: 2, removed: 0 });
  });

  it("counts a changed row on both sides", () => {
    expect(diffStats(diffLines("a\nb", "a\nc\nd"))).toEqual({ added: 2, removed: 1 });
    expect(hasChanges(diffLines("a", "a"))).toBe(false);
  });
});

describe("diffJson", () => {
  it("ignores key order and shows only the changed value", () => {
    const before = { llm: { provider: "openai", model: "gpt-5-mini" }, instructions: { agents_md: "Hi" } };
    const after = { instructions: { agents_md: "Hi" }, llm: { model: "gpt-5", provider: "openai" } };
    const rows = diffJson(before, after);
    expect(rows.filter((r) => r.kind !== "unchanged")).toEqual([
      {
        kind: "changed",
        left: { number: 6, text: '    "model": "gpt-5-mini",' },
        right: { number: 6, text: '    "model": "gpt-5",' },
      },
    ]);
  });

  it("prints keys sorted at every depth", () => {
    expect(stableStringify({ b: 1, a: [{ d: 1, c: 2 }] }, 2)).toBe(
      '{\n  "a": [\n    {\n      "c": 2,\n      "d": 1\n    }\n  ],\n  "b": 1\n}',
    );
    expect(stableStringify({ b: undefined, a: [undefined] })).toBe('{"a":[null]}');
  });
});

describe("foldUnchanged", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `l${i}`).join("\n");

  it("keeps context around a change and folds the long unchanged runs", () => {
    const before = many(20);
    const after = before.replace("l10", "L10");
    const blocks = foldUnchanged(diffLines(before, after), { context: 3 });
    expect(blocks.map((b) => [b.type, b.start, b.rows.length])).toEqual([
      ["fold", 0, 7],
      ["rows", 7, 7],
      ["fold", 14, 6],
    ]);
    expect(blocks[1].rows.map((r) => r.kind)).toEqual([
      "unchanged",
      "unchanged",
      "unchanged",
      "changed",
      "unchanged",
      "unchanged",
      "unchanged",
    ]);
  });

  it("does not fold runs shorter than the minimum, and opens folds the reader expanded", () => {
    const rows = diffLines(many(8), many(8).replace("l4", "L4"));
    expect(foldUnchanged(rows, { context: 3 }).map((b) => b.type)).toEqual(["rows"]);
    const long = diffLines(many(30), many(30).replace("l15", "L15"));
    const folded = foldUnchanged(long);
    const first = folded.find((b) => b.type === "fold")!;
    expect(first.type === "fold" && first.id).toBe("fold-0");
    const opened = foldUnchanged(long, { expanded: new Set(["fold-0"]) });
    expect(opened[0]).toMatchObject({ type: "rows", start: 0 });
    expect(opened.flatMap((b) => b.rows)).toHaveLength(opened[0].rows.length + (opened[1]?.rows.length ?? 0));
  });

  it("folds an identical document entirely and keeps every row reachable", () => {
    const rows = diffLines(many(10), many(10));
    const blocks = foldUnchanged(rows);
    expect(blocks).toEqual([{ type: "fold", start: 0, rows, id: "fold-0" }]);
    const mixed = diffLines(many(40), many(40).replace("l5", "X").replace("l30", "Y"));
    expect(foldUnchanged(mixed).flatMap((b) => b.rows)).toEqual(mixed);
  });
});

describe("inlineChanges", () => {
  it("emphasises the changed words only", () => {
    const inline = inlineChanges('    "model": "gpt-5-mini",', '    "model": "gpt-5",');
    expect(inline).not.toBeNull();
    expect(inline!.left.filter((s) => s.changed).map((s) => s.text)).toEqual(["-mini"]);
    expect(inline!.right.filter((s) => s.changed)).toEqual([]);
    expect(inline!.left.map((s) => s.text).join("")).toBe('    "model": "gpt-5-mini",');
  });

  it("joins changes separated only by whitespace", () => {
    const inline = inlineChanges(
      "The agent says hello world to every user",
      "The agent says goodbye cruel to every user",
    )!;
    expect(inline.right.filter((s) => s.changed).map((s) => s.text)).toEqual(["goodbye cruel"]);
  });

  it("gives up when the lines have too little in common", () => {
    expect(inlineChanges("alpha beta gamma", "one two three")).toBeNull();
  });
});

describe("slideRuns (readable placement of pure additions and removals)", () => {
  const tools = (names: string[]) =>
    stableStringify({ tools: names.map((name) => ({ name, permission: null, type: "builtin" })) }, 2);

  it("removes a whole array item, from its opening brace on", () => {
    const rows = diffLines(tools(["read", "edit", "write"]), tools(["read", "edit"]));
    const removed = rows.filter((r) => r.kind === "removed").map((r) => r.left!.text.trim());
    expect(removed).toEqual(["},", "{", '"name": "write",', '"permission": null,', '"type": "builtin"']);
    expect(rows.filter((r) => r.kind !== "unchanged" && r.kind !== "removed")).toEqual([]);
  });

  it("adds a whole array item in the middle as one block starting at its brace", () => {
    const rows = diffLines(tools(["read", "write"]), tools(["read", "bash", "write"]));
    const added = rows.filter((r) => r.kind === "added").map((r) => r.right!.text.trim());
    expect(added[0]).toBe("{");
    expect(added).toContain('"name": "bash",');
    expect(added[added.length - 1]).toBe("},");
  });

  it("never changes what the diff says, only where", () => {
    let seed = 3;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const a = Array.from(
        { length: Math.floor(rand() * 25) },
        () => ["{", "}", "  x", "  y", ""][Math.floor(rand() * 5)],
      );
      const b = Array.from(
        { length: Math.floor(rand() * 25) },
        () => ["{", "}", "  x", "  y", ""][Math.floor(rand() * 5)],
      );
      const rows = diffLines(a.join("\n"), b.join("\n"));
      expect(rows.flatMap((r) => (r.left ? [r.left.text] : []))).toEqual(splitLines(a.join("\n")));
      expect(rows.flatMap((r) => (r.right ? [r.right.text] : []))).toEqual(splitLines(b.join("\n")));
      for (const r of rows) if (r.kind === "unchanged") expect(r.left!.text).toBe(r.right!.text);
      const plain = diffSequences(splitLines(a.join("\n")), splitLines(b.join("\n")));
      expect(diffStats(rows).added).toBe(plain.filter((e) => e.type === "insert").length);
    }
  });
});

describe("readableJson and long texts", () => {
  const before = {
    instructions: { agents_md: "You are a triage agent.\n\n- Classify each ticket.\n- Answer briefly." },
    llm: { model: "gpt-5-mini" },
  };
  const after = {
    instructions: {
      agents_md: "You are a triage agent.\n\n- Classify each ticket.\n- Escalate refunds.\n- Answer briefly.",
    },
    llm: { model: "gpt-5-mini" },
  };

  it("prints a multi-line string as a text block, one line per line, unescaped", () => {
    expect(readableJson(before)).toBe(
      [
        "{",
        '  "instructions": {',
        '    "agents_md": """',
        "      You are a triage agent.",
        "",
        "      - Classify each ticket.",
        "      - Answer briefly.",
        '      """',
        "  },",
        '  "llm": {',
        '    "model": "gpt-5-mini"',
        "  }",
        "}",
      ].join("\n"),
    );
  });

  it("keeps one-line strings, quotes and other values as JSON", () => {
    expect(readableJson({ a: 'say "hi"', b: [1, null, true], c: {}, d: [] })).toBe(
      stableStringify({ a: 'say "hi"', b: [1, null, true], c: {}, d: [] }, 2),
    );
    expect(readableJson(undefined)).toBe("");
  });

  it("diffs an edited AGENTS.md line by line: one added line, not one changed escaped string", () => {
    const changed = diffJson(before, after).filter((r) => r.kind !== "unchanged");
    expect(changed).toEqual([{ kind: "added", right: { number: 7, text: "      - Escalate refunds." } }]);
  });
});
