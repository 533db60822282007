export type JsonTokenKind = "key" | "string" | "number" | "literal" | "punctuation" | "text";

export interface JsonToken {
  kind: JsonTokenKind;
  text: string;
}

const TOKEN =
  /("(?:[^"\\\n]|\\.)*")(?=\s*:)|("(?:[^"\\\n]|\\.)*"?)|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],:])/g;

/**
 * JSON text cut into highlightable tokens; whatever does not match (whitespace, a typo) stays
 * plain text, so joining the tokens always gives back the input, valid JSON or not.
 */
export function tokenizeJson(text: string): JsonToken[] {
  const tokens: JsonToken[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    if (index > last) tokens.push({ kind: "text", text: text.slice(last, index) });
    const kind: JsonTokenKind = match[1]
      ? "key"
      : match[2]
        ? "string"
        : match[3]
          ? "number"
          : match[4]
            ? "literal"
            : "punctuation";
    tokens.push({ kind, text: match[0] });
    last = index + match[0].length;
  }
  if (last < text.length) tokens.push({ kind: "text", text: text.slice(last) });
  return tokens;
}
