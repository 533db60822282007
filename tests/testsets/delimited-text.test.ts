import { describe, expect, it } from "vitest";
import { formatDelimited, parseDelimited } from "@/components/testsets/delimited-text";

describe("parseDelimited", () => {
  it("reads quoted fields with delimiters, doubled quotes and line breaks, CRLF and a BOM", () => {
    const text = '\ufeffinput,correct_answer\r\n"a, b","say ""hi"""\r\n"two\nlines",x\r\n';
    expect(parseDelimited(text)).toEqual([
      ["input", "correct_answer"],
      ["a, b", 'say "hi"'],
      ["two\nlines", "x"],
    ]);
  });

  it("keeps empty fields and a last line without a line break", () => {
    expect(parseDelimited("a,,c\n,,")).toEqual([
      ["a", "", "c"],
      ["", "", ""],
    ]);
  });

  it("reads tab-separated text", () => {
    expect(parseDelimited("x\ty\n1\t2", "\t")).toEqual([
      ["x", "y"],
      ["1", "2"],
    ]);
  });
});

describe("formatDelimited", () => {
  it("quotes only what needs it, and round-trips through the parser", () => {
    const records = [
      ["plain", "with, comma", 'with "quote"'],
      ["multi\nline", " padded ", ""],
    ];
    const text = formatDelimited(records);
    expect(text).toBe('plain,"with, comma","with ""quote"""\r\n"multi\nline"," padded ",\r\n');
    expect(parseDelimited(text)).toEqual(records);
  });
});
