/**
 * Glob matching in O(text × glob) time with no regular expression, so a user's glob (a permission
 * rule) cannot stall the process however it is written. `*` matches within a path segment (not
 * `/`), `**` across segments, `?` one character but `/`, `[a-z]` / `[!a-z]` a class, `{a,b}`
 * alternatives; dot files match like any other name (minimatch's `dot: true`).
 */
export function globMatch(text: string, glob: string): boolean {
  // `**/` may also match no directory at all (`**/*.ts` matches `a.ts`): one more alternative.
  const withOptionalDirs = glob.replace(/(^|[^\\])\*\*\//g, "$1{,**/}");
  return expandBraces(withOptionalDirs).some((alternative) => matchTokens(text, tokenize(alternative)));
}

/** Brace alternatives multiply; past this many the glob matches nothing rather than exploding. */
const MAX_ALTERNATIVES = 64;

type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "globstar" }
  | { kind: "class"; negated: boolean; ranges: [string, string][] };

function matchTokens(text: string, tokens: Token[]): boolean {
  // live[i]: the first i tokens can match the text read so far. Stars may match nothing, so
  // every state is closed over them before reading the next character.
  let live = new Uint8Array(tokens.length + 1);
  let next = new Uint8Array(tokens.length + 1);
  live[0] = 1;
  close(live, tokens);
  for (const char of text) {
    next.fill(0);
    let any = false;
    for (let i = 0; i < tokens.length; i++) {
      if (!live[i]) continue;
      const token = tokens[i];
      if (token.kind === "star" || token.kind === "globstar") {
        if (token.kind === "globstar" || char !== "/") next[i] = 1;
        else continue;
      } else if (consumes(token, char)) next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    [live, next] = [next, live];
    close(live, tokens);
  }
  return live[tokens.length] === 1;
}

function close(live: Uint8Array, tokens: Token[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const kind = tokens[i].kind;
    if (live[i] && (kind === "star" || kind === "globstar")) live[i + 1] = 1;
  }
}

function consumes(token: Token, char: string): boolean {
  switch (token.kind) {
    case "char":
      return token.char === char;
    case "any":
      return char !== "/";
    case "class": {
      const inside = token.ranges.some(([from, to]) => char >= from && char <= to);
      return char !== "/" && inside !== token.negated;
    }
    default:
      return false;
  }
}

function tokenize(glob: string): Token[] {
  const chars = [...glob];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\" && i + 1 < chars.length) tokens.push({ kind: "char", char: chars[++i] });
    else if (c === "*") {
      let j = i;
      while (chars[j + 1] === "*") j++;
      const previous = tokens.at(-1);
      if (previous?.kind === "star" || previous?.kind === "globstar") tokens.pop();
      tokens.push({ kind: j > i || previous?.kind === "globstar" ? "globstar" : "star" });
      i = j;
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "[") {
      const parsed = parseClass(chars, i);
      if (parsed) {
        tokens.push(parsed.token);
        i = parsed.end;
      } else tokens.push({ kind: "char", char: c });
    } else tokens.push({ kind: "char", char: c });
  }
  return tokens;
}

function parseClass(chars: string[], start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i++;
  const ranges: [string, string][] = [];
  for (let first = true; i < chars.length; i++, first = false) {
    if (chars[i] === "]" && !first) return { token: { kind: "class", negated, ranges }, end: i };
    const from = chars[i] === "\\" && i + 1 < chars.length ? chars[++i] : chars[i];
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      ranges.push([from, chars[i + 2]]);
      i += 2;
    } else ranges.push([from, from]);
  }
  return undefined;
}

/** `a{b,c}d` -> `abd`, `acd`; nested braces expand from the inside out. */
function expandBraces(glob: string): string[] {
  let results = [glob];
  for (let guard = 0; guard < MAX_ALTERNATIVES; guard++) {
    let changed = false;
    const next: string[] = [];
    for (const item of results) {
      const brace = innermostBrace(item);
      if (!brace) {
        next.push(item);
        continue;
      }
      changed = true;
      const [open, close, options] = brace;
      for (const option of options) next.push(item.slice(0, open) + option + item.slice(close + 1));
    }
    if (next.length > MAX_ALTERNATIVES) return [];
    results = next;
    if (!changed) return results;
  }
  return [];
}

function innermostBrace(glob: string): [number, number, string[]] | undefined {
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob[i] === "{") open = i;
    else if (glob[i] === "}" && open >= 0) {
      const options = splitOptions(glob.slice(open + 1, i));
      if (options.length > 1) return [open, i, options];
      open = -1;
    }
  }
  return undefined;
}

function splitOptions(body: string): string[] {
  const options: string[] = [];
  let current = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") current += body[i] + (body[++i] ?? "");
    else if (body[i] === ",") {
      options.push(current);
      current = "";
    } else current += body[i];
  }
  options.push(current);
  return options;
}
