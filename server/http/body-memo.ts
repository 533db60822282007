/** Bodies larger than this are parsed per request: a retrieve's references are a few hundred bytes. */
const MAX_BYTES = 2048;
/** Distinct bodies kept per route; past it the oldest goes (a hot route sees few distinct bodies). */
const MAX_ENTRIES = 512;

/**
 * Parsed and validated request bodies of one route, by their text. Parsing and validation are
 * pure functions of the text, so a body seen before is answered with the value it produced then;
 * the value is frozen, since every request with that text shares it. Bodies that fail are not
 * kept (their error is made per request).
 */
export class BodyMemo {
  private readonly values = new Map<string, unknown>();

  /** The body's text, when it is small enough to be kept. */
  textOf(bytes: Buffer | undefined): string | undefined {
    return bytes && bytes.length <= MAX_BYTES ? bytes.toString("utf8") : undefined;
  }

  get(text: string): unknown {
    return this.values.get(text);
  }

  set(text: string, value: unknown): void {
    if (this.values.size >= MAX_ENTRIES) this.values.delete(this.values.keys().next().value!);
    this.values.set(text, deepFreeze(value));
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
