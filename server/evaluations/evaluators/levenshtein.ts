const codePoints = (text: string) => Int32Array.from(Array.from(text), (c) => c.codePointAt(0)!);

/** The edit distance (insertions, deletions, substitutions) between two strings, over code points. */
export function levenshteinDistance(a: string, b: string): number {
  const left = codePoints(a);
  const right = codePoints(b);
  // Two typed rows: the inner loop is the whole cost (length × length), so it stays allocation-free.
  let previous = new Uint32Array(right.length + 1).map((_, j) => j);
  let current = new Uint32Array(right.length + 1);
  for (let i = 1; i <= left.length; i++) {
    current[0] = i;
    const char = left[i - 1];
    for (let j = 1; j <= right.length; j++) {
      const substitute = previous[j - 1] + (char === right[j - 1] ? 0 : 1);
      const remove = previous[j] + 1;
      const insert = current[j - 1] + 1;
      current[j] =
        substitute < remove ? (substitute < insert ? substitute : insert) : remove < insert ? remove : insert;
    }
    [previous, current] = [current, previous];
  }
  return previous[right.length];
}

/** 1 − distance / longer length; two empty strings are identical (1). */
export function levenshteinSimilarity(a: string, b: string): number {
  const longer = Math.max(Array.from(a).length, Array.from(b).length);
  return longer === 0 ? 1 : 1 - levenshteinDistance(a, b) / longer;
}
