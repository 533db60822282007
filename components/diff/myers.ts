/** One step of an edit script: keep a[aIndex] (= b[bIndex]), delete a[aIndex], or insert b[bIndex]. */
export type Edit =
  | { type: "equal"; aIndex: number; bIndex: number }
  | { type: "delete"; aIndex: number }
  | { type: "insert"; bIndex: number };

export interface MyersOptions {
  /**
   * Give up on a minimal script after this many edits and replace the rest with "delete all,
   * insert all": the trace costs O(D²) memory, and past a few thousand edits nobody reads the
   * diff line by line anyway.
   */
  maxEdits?: number;
}

/**
 * Myers' O(ND) shortest edit script, with the common prefix and suffix taken off first (most
 * template diffs touch a few lines of a long document, so the search runs on a small middle).
 */
export function diffSequences<T>(a: readonly T[], b: readonly T[], options: MyersOptions = {}): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const edits: Edit[] = [];
  for (let i = 0; i < start; i++) edits.push({ type: "equal", aIndex: i, bIndex: i });
  const middle = middleScript(a.slice(start, endA), b.slice(start, endB), options.maxEdits ?? 2_000);
  for (const edit of middle) {
    if (edit.type === "equal") edits.push({ type: "equal", aIndex: edit.aIndex + start, bIndex: edit.bIndex + start });
    else if (edit.type === "delete") edits.push({ type: "delete", aIndex: edit.aIndex + start });
    else edits.push({ type: "insert", bIndex: edit.bIndex + start });
  }
  for (let i = 0; endA + i < a.length; i++) edits.push({ type: "equal", aIndex: endA + i, bIndex: endB + i });
  return edits;
}

function replaceAll(n: number, m: number): Edit[] {
  const edits: Edit[] = [];
  for (let i = 0; i < n; i++) edits.push({ type: "delete", aIndex: i });
  for (let j = 0; j < m; j++) edits.push({ type: "insert", bIndex: j });
  return edits;
}

function middleScript<T>(a: readonly T[], b: readonly T[], maxEdits: number): Edit[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return replaceAll(n, m);
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  // v[offset + k] = furthest x on diagonal k; trace[d] is a copy of v[k] for k in [-d-1, d+1] before step d.
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return replaceAll(n, m);
}

function backtrack(trace: Int32Array[], n: number, m: number): Edit[] {
  const reversed: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const snapshot = trace[d];
    const at = (k: number) => snapshot[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      reversed.push({ type: "equal", aIndex: x - 1, bIndex: y - 1 });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) reversed.push({ type: "insert", bIndex: y - 1 });
      else reversed.push({ type: "delete", aIndex: x - 1 });
    }
    x = prevX;
    y = prevY;
  }
  return reversed.reverse();
}
