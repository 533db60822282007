/** Cosine similarity of two texts' word-count vectors (words: runs of letters and digits). */
export function wordCosine(a: string, b: string): number {
  const count = (text: string) => {
    const counts = new Map<string, number>();
    for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  };
  const left = count(a);
  const right = count(b);
  if (left.size === 0 && right.size === 0) return 1;
  let dot = 0;
  for (const [word, n] of left) dot += n * (right.get(word) ?? 0);
  const norm = (counts: Map<string, number>) => Math.sqrt([...counts.values()].reduce((sum, n) => sum + n * n, 0));
  const denominator = norm(left) * norm(right);
  return denominator === 0 ? 0 : dot / denominator;
}
