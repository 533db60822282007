import { stableStringify } from "@/shared/stable-json";

/** Marks where a text block starts and ends; the lines between are the string's own lines, unescaped. */
export const TEXT_BLOCK_FENCE = '"""';

/**
 * JSON with sorted keys (like `stableStringify`), except that a string with line breaks (an
 * AGENTS.md, a prompt) prints as a text block: its lines one per line, indented under the key,
 * between `"""` fences. A diff of two such documents then shows which lines of the text changed
 * instead of one long escaped string.
 */
export function readableJson(value: unknown): string {
  if (value === undefined) return "";
  return print(JSON.parse(stableStringify(value)), "");
}

function print(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (typeof value === "string" && value.includes("\n")) {
    const lines = value.split("\n").map((line) => (line === "" ? "" : `${inner}${line}`));
    return [TEXT_BLOCK_FENCE, ...lines, `${inner}${TEXT_BLOCK_FENCE}`].join("\n");
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${print(item, inner)}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${print(item, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}
