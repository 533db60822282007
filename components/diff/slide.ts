import type { Edit } from "./myers";

/**
 * A run of only deleted (or only inserted) lines can often sit in several places with the same
 * edit count: removing the second of two similar JSON objects can be shown as
 * `"permission"... }, { "name": "write",` or as `}, { "name": "write", "permission"...`. Like
 * git's indent heuristic, this slides each such run to where its first and last lines are least
 * indented, which is where whole objects and array items begin and end.
 */
export function slideRuns(edits: Edit[], a: readonly string[], b: readonly string[]): Edit[] {
  const changedA = new Array<boolean>(a.length).fill(false);
  const changedB = new Array<boolean>(b.length).fill(false);
  for (const edit of edits) {
    if (edit.type === "delete") changedA[edit.aIndex] = true;
    if (edit.type === "insert") changedB[edit.bIndex] = true;
  }
  compact(a, changedA, changedB);
  compact(b, changedB, changedA);
  return rebuild(changedA, changedB);
}

const indent = (line: string | undefined) =>
  line === undefined || line.trim() === "" ? 0 : line.length - line.trimStart().length;

/** Slides the pure runs of one side; `other` marks the other side's changed lines (never moved here). */
function compact(lines: readonly string[], changed: boolean[], other: boolean[]): void {
  const n = lines.length;
  let i = 0;
  while (i < n) {
    if (!changed[i]) {
      i++;
      continue;
    }
    let start = i;
    let end = i;
    while (end < n && changed[end]) end++;
    let partner = partners(changed, other);
    // No change on the other side between the partners of lines x and y (x < y, unchanged or outside).
    const clean = (x: number, y: number) => {
      const left = x < 0 ? -1 : partner[x];
      const right = y >= n ? other.length : partner[y];
      for (let k = left + 1; k < right; k++) if (other[k]) return false;
      return true;
    };
    if (!clean(start - 1, end)) {
      i = end;
      continue;
    }
    // Slide up as far as it goes, then try every position on the way down.
    while (
      start > 0 &&
      !changed[start - 1] &&
      lines[start - 1] === lines[end - 1] &&
      (start < 2 || !changed[start - 2]) &&
      clean(start - 2, start - 1)
    ) {
      changed[start - 1] = true;
      changed[end - 1] = false;
      start--;
      end--;
      partner = partners(changed, other);
    }
    let best = start;
    let bestScore = indent(lines[start]) + indent(lines[end - 1]);
    let s = start;
    let e = end;
    while (e < n && !changed[e] && lines[s] === lines[e] && (e + 1 >= n || !changed[e + 1]) && clean(e, e + 1)) {
      s++;
      e++;
      const score = indent(lines[s]) + indent(lines[e - 1]);
      if (score <= bestScore) {
        best = s;
        bestScore = score;
      }
    }
    const length = end - start;
    for (let k = start; k < end; k++) changed[k] = false;
    for (let k = best; k < best + length; k++) changed[k] = true;
    i = best + length;
  }
}

/** The other side's index of every unchanged line: unchanged lines pair up in order. */
function partners(changed: boolean[], other: boolean[]): number[] {
  const partner = new Array<number>(changed.length).fill(-1);
  let j = 0;
  for (let i = 0; i < changed.length; i++) {
    if (changed[i]) continue;
    while (j < other.length && other[j]) j++;
    partner[i] = j++;
  }
  return partner;
}

function rebuild(changedA: boolean[], changedB: boolean[]): Edit[] {
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < changedA.length || j < changedB.length) {
    if (i < changedA.length && changedA[i]) edits.push({ type: "delete", aIndex: i++ });
    else if (j < changedB.length && changedB[j]) edits.push({ type: "insert", bIndex: j++ });
    else edits.push({ type: "equal", aIndex: i++, bIndex: j++ });
  }
  return edits;
}
