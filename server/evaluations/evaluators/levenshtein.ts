/** The edit distance (insertions, deletions, substitutions) between two strings, over code points. */
export function levenshteinDistance(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  let previous = Array.from({ length: right.length + 1 }, (_, j) => j);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[right.length];
}

/** 1 − distance / longer length; two empty strings are identical (1). */
export function levenshteinSimilarity(a: string, b: string): number {
  const longer = Math.max(Array.from(a).length, Array.from(b).length);
  return longer === 0 ? 1 : 1 - levenshteinDistance(a, b) / longer;
}
