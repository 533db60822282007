import { deepEqual } from "./deep-equal";

/** How the JSON view shows a template: two-space indent, the form's edits keep key order. */
export function formatTemplate(template: unknown): string {
  return JSON.stringify(template, null, 2);
}

export interface JsonSyntaxError {
  message: string;
  /** 1-based, when the parser said where. */
  line?: number;
  column?: number;
}

export type ParsedText = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

export function parseTemplateText(text: string): ParsedText {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: describeSyntaxError(text, error instanceof Error ? error.message : String(error)) };
  }
}

function describeSyntaxError(text: string, raw: string): JsonSyntaxError {
  if (text.trim() === "") return { message: "The template is empty; it must be a JSON object" };
  // V8: "... in JSON at position 42 (line 3 column 5)"; older engines only give the position.
  const lineColumn = /line (\d+) column (\d+)/.exec(raw);
  const position = /position (\d+)/.exec(raw);
  const message = raw
    .replace(/\s*\(line \d+ column \d+\)/, "")
    .replace(/ in JSON at position \d+/, "")
    .replace(/^JSON\.parse: /, "");
  if (lineColumn) return { message, line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  if (position) return { message, ...lineAndColumn(text, Number(position[1])) };
  return { message };
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** Whether `text` differs from `base`: formatting alone does not count, a syntax error does. */
export function textDiffersFrom(text: string, base: unknown): boolean {
  const parsed = parseTemplateText(text);
  return !parsed.ok || !deepEqual(parsed.value, base);
}
