/**
 * Python's `difflib.SequenceMatcher(None, a, b).ratio()` over code points, with its default
 * autojunk heuristic (in a `b` of 200 or more items, items occurring more than 1% + 1 times are
 * not used to seed matches), so scores equal the reference implementation's to the last digit.
 */
export function sequenceRatio(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const total = left.length + right.length;
  if (total === 0) return 1;
  return (2 * matchingCharacters(left, right)) / total;
}

function matchingCharacters(a: string[], b: string[]): number {
  const b2j = new Map<string, number[]>();
  b.forEach((item, j) => {
    const list = b2j.get(item);
    if (list) list.push(j);
    else b2j.set(item, [j]);
  });
  if (b.length >= 200) {
    const limit = Math.floor(b.length / 100) + 1;
    for (const [item, list] of b2j) if (list.length > limit) b2j.delete(item);
  }

  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let [besti, bestj, bestsize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    // Popular items were left out of the seeds; a match still extends over them.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1])
      [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  };

  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (!k) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return matched;
}
