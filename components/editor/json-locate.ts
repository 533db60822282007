import { formatPath, parsePath, type PathSegment } from "./json-path";
import { lineAndColumn } from "./template-text";

/**
 * Where each value of a JSON text starts, by path (`tools[0].name`); for an object property the
 * key's position, so an unknown key is pointed at where it is written. Returns an empty map for
 * text that is not valid JSON.
 */
export function locateJsonPaths(text: string): Map<string, number> {
  const positions = new Map<string, number>();
  try {
    const scanner = new Scanner(text, positions);
    scanner.value([], scanner.skip());
  } catch {
    return new Map();
  }
  return positions;
}

/** The 1-based line of `path`, or of its nearest ancestor written in the text (a missing key's object). */
export function lineOfPath(text: string, path: string, positions = locateJsonPaths(text)): number | undefined {
  const segments = parsePath(path);
  for (let length = segments.length; length >= 0; length--) {
    const offset = positions.get(formatPath(segments.slice(0, length)));
    if (offset !== undefined) return lineAndColumn(text, offset).line;
  }
  return undefined;
}

// Sticky patterns match at `lastIndex` only, so scanning stays linear in the text's length.
const LITERAL = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const STRING = /"(?:[^"\\]|\\.)*"/sy;

class Scanner {
  private i = 0;
  constructor(
    private readonly text: string,
    private readonly positions: Map<string, number>,
  ) {}

  skip(): number {
    while (/\s/.test(this.text[this.i] ?? "")) this.i++;
    return this.i;
  }

  value(path: PathSegment[], start: number): void {
    const key = formatPath(path);
    if (!this.positions.has(key)) this.positions.set(key, start);
    const c = this.text[this.i];
    if (c === "{") return this.object(path);
    if (c === "[") return this.array(path);
    if (c === '"') {
      this.string();
      return;
    }
    LITERAL.lastIndex = this.i;
    const literal = LITERAL.exec(this.text);
    if (!literal) throw new Error(`unexpected character at ${this.i}`);
    this.i += literal[0].length;
  }

  private object(path: PathSegment[]): void {
    this.i++;
    if (this.text[this.skip()] === "}") {
      this.i++;
      return;
    }
    for (;;) {
      const keyStart = this.skip();
      const name = this.string();
      this.positions.set(formatPath([...path, name]), keyStart);
      this.expect(":");
      this.value([...path, name], this.skip());
      if (this.next(",")) continue;
      this.expect("}");
      return;
    }
  }

  private array(path: PathSegment[]): void {
    this.i++;
    if (this.text[this.skip()] === "]") {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.value([...path, index], this.skip());
      if (this.next(",")) continue;
      this.expect("]");
      return;
    }
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const match = STRING.exec(this.text);
    if (!match) throw new Error(`expected a string at ${this.i}`);
    this.i += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  private next(char: string): boolean {
    if (this.text[this.skip()] !== char) return false;
    this.i++;
    return true;
  }

  private expect(char: string): void {
    if (!this.next(char)) throw new Error(`expected ${char} at ${this.i}`);
  }
}
