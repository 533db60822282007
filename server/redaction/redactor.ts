import { RE2JS } from "re2js";
import { BadRequestError } from "@/server/core/errors";
import { BUILT_IN_DETECTORS, BUILT_IN_KINDS, type BuiltInKind, type Detector } from "./detectors";

export interface RedactionRules {
  /** The built-in kinds to find. */
  kinds: readonly BuiltInKind[];
  /** The project's own patterns (RE2 syntax), each with a name shown in the placeholder. */
  patterns: readonly { name: string; pattern: string }[];
}

/** What a found value becomes: its kind, never any part of it. */
export const placeholder = (kind: string) => `[redacted:${kind}]`;

/**
 * A compiled rule set. Detectors run in a fixed order (secrets first, since a key may contain
 * digits a card or phone pattern would take), each over the previous one's output; placeholders
 * contain nothing a later detector matches. Every pattern is RE2, so a pass is linear in the text.
 */
export class Redactor {
  private readonly detectors: Detector[];

  constructor(rules: RedactionRules) {
    const order: BuiltInKind[] = ["secret", "email", "iban", "card", "phone"];
    this.detectors = order.filter((k) => rules.kinds.includes(k)).map((k) => BUILT_IN_DETECTORS[k]);
    for (const { name, pattern } of rules.patterns)
      this.detectors.push({ kind: name, pattern: compileProjectPattern(name, pattern) });
  }

  get active(): boolean {
    return this.detectors.length > 0;
  }

  text(input: string): string {
    let out = input;
    for (const detector of this.detectors) out = replaceMatches(out, detector);
    return out;
  }

  /** Every string in `value`, at any depth (object keys stay: they are names, not data). */
  value<T>(value: T): T {
    if (!this.active) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = this.walk(v);
    return out;
  }
}

function replaceMatches(text: string, detector: Detector): string {
  const matcher = detector.pattern.matcher(text);
  let out = "";
  let last = 0;
  while (matcher.find()) {
    const start = matcher.start();
    const end = matcher.end();
    if (end === start) continue;
    const found = text.slice(start, end);
    if (detector.accept && !detector.accept(found)) continue;
    out += text.slice(last, start) + placeholder(detector.kind);
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** A project pattern, or 400 saying why it cannot be used. */
export function compileProjectPattern(name: string, source: string): RE2JS {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    throw new BadRequestError(
      `Redaction pattern "${name}" is not valid RE2 syntax (no backreferences or lookaround): ${(error as Error).message}`,
      "invalid_pattern",
    );
  }
}

export { BUILT_IN_KINDS };
