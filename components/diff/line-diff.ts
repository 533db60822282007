import { diffSequences } from "./myers";
import { slideRuns } from "./slide";
import { readableJson } from "./readable-json";

/**
 * Side-by-side line diff: pure functions from two texts to the rows a diff view renders.
 * Removed and added lines between the same two unchanged lines are paired into "changed" rows
 * (first with first, second with second); the rest stay "removed" or "added".
 */

export interface DiffLine {
  /** 1-based line number in its document. */
  number: number;
  text: string;
}

export type DiffRowKind = "unchanged" | "added" | "removed" | "changed";

export interface DiffRow {
  kind: DiffRowKind;
  /** The line of the old document; absent on "added" rows. */
  left?: DiffLine;
  /** The line of the new document; absent on "removed" rows. */
  right?: DiffLine;
}

export function splitLines(text: string): string[] {
  return text === "" ? [] : text.split("\n");
}

/** Rows of a side-by-side diff of two texts. */
export function diffLines(before: string, after: string): DiffRow[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const rows: DiffRow[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    const paired = Math.min(removed.length, added.length);
    for (let i = 0; i < paired; i++)
      rows.push({ kind: "changed", left: line(a, removed[i]), right: line(b, added[i]) });
    for (let i = paired; i < removed.length; i++) rows.push({ kind: "removed", left: line(a, removed[i]) });
    for (let i = paired; i < added.length; i++) rows.push({ kind: "added", right: line(b, added[i]) });
    removed = [];
    added = [];
  };
  for (const edit of slideRuns(diffSequences(a, b), a, b)) {
    if (edit.type === "delete") removed.push(edit.aIndex);
    else if (edit.type === "insert") added.push(edit.bIndex);
    else {
      flush();
      rows.push({ kind: "unchanged", left: line(a, edit.aIndex), right: line(b, edit.bIndex) });
    }
  }
  flush();
  return rows;
}

const line = (lines: string[], index: number): DiffLine => ({ number: index + 1, text: lines[index] });

/**
 * Diff of two JSON values printed with sorted keys and long texts as text blocks (`readableJson`),
 * so an edited AGENTS.md shows its changed lines; `undefined` is an empty document (a first deploy).
 */
export function diffJson(before: unknown, after: unknown): DiffRow[] {
  return diffLines(readableJson(before), readableJson(after));
}

export interface DiffStats {
  added: number;
  removed: number;
}

/** Lines added and removed; a changed row counts once on each side. */
export function diffStats(rows: readonly DiffRow[]): DiffStats {
  let added = 0;
  let removed = 0;
  for (const row of rows) {
    if (row.kind === "added" || row.kind === "changed") added++;
    if (row.kind === "removed" || row.kind === "changed") removed++;
  }
  return { added, removed };
}

export const hasChanges = (rows: readonly DiffRow[]) => rows.some((row) => row.kind !== "unchanged");

export type DiffBlock =
  | { type: "rows"; start: number; rows: DiffRow[] }
  /** Unchanged rows hidden behind "show N unchanged lines"; `id` stays stable for a given diff. */
  | { type: "fold"; start: number; rows: DiffRow[]; id: string };

export interface FoldOptions {
  /** Unchanged lines kept visible on each side of a change. */
  context?: number;
  /** Runs that would hide fewer lines than this stay visible: a fold of one line saves nothing. */
  minimum?: number;
  /** Folds (by id) the reader opened. */
  expanded?: ReadonlySet<string>;
}

/** Groups rows into visible runs and folds of unchanged lines away from any change. */
export function foldUnchanged(rows: readonly DiffRow[], options: FoldOptions = {}): DiffBlock[] {
  const context = options.context ?? 3;
  const minimum = Math.max(1, options.minimum ?? 4);
  const blocks: DiffBlock[] = [];
  const show = (from: number, to: number) => {
    if (from >= to) return;
    const last = blocks[blocks.length - 1];
    if (last?.type === "rows") last.rows.push(...rows.slice(from, to));
    else blocks.push({ type: "rows", start: from, rows: rows.slice(from, to) });
  };
  let i = 0;
  while (i < rows.length) {
    if (rows[i].kind !== "unchanged") {
      show(i, i + 1);
      i++;
      continue;
    }
    let end = i;
    while (end < rows.length && rows[end].kind === "unchanged") end++;
    const hideFrom = i === 0 ? i : i + context;
    const hideTo = end === rows.length ? end : end - context;
    const id = `fold-${i}`;
    if (hideTo - hideFrom >= minimum && !options.expanded?.has(id)) {
      show(i, hideFrom);
      blocks.push({ type: "fold", start: hideFrom, rows: rows.slice(hideFrom, hideTo), id });
      show(hideTo, end);
    } else {
      show(i, end);
    }
    i = end;
  }
  return blocks;
}

export interface Segment {
  text: string;
  /** Part of what changed between the two lines. */
  changed: boolean;
}

const TOKEN = /\w+|\s+|[^\w\s]/g;

/**
 * Word-level emphasis for a changed row. Returns null when the lines share too little for
 * emphasis to help (then the whole line is the change).
 */
export function inlineChanges(before: string, after: string): { left: Segment[]; right: Segment[] } | null {
  const a = before.match(TOKEN) ?? [];
  const b = after.match(TOKEN) ?? [];
  const left: Segment[] = [];
  const right: Segment[] = [];
  let common = 0;
  for (const edit of diffSequences(a, b, { maxEdits: 400 })) {
    if (edit.type === "equal") {
      push(left, a[edit.aIndex], false);
      push(right, b[edit.bIndex], false);
      common += a[edit.aIndex].trim() === "" ? 0 : a[edit.aIndex].length;
    } else if (edit.type === "delete") push(left, a[edit.aIndex], true);
    else push(right, b[edit.bIndex], true);
  }
  const longest = Math.max(before.trim().length, after.trim().length);
  if (longest === 0 || common / longest < 0.3) return null;
  return { left: coalesce(left), right: coalesce(right) };
}

function push(segments: Segment[], text: string, changed: boolean) {
  const last = segments[segments.length - 1];
  if (last && last.changed === changed) last.text += text;
  else segments.push({ text, changed });
}

/** Whitespace alone between two changes reads as part of one change, not two. */
function coalesce(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const prev = out[out.length - 1];
    const next = segments[i + 1];
    if (!segment.changed && prev?.changed && next?.changed && segment.text.trim() === "") {
      prev.text += segment.text + next.text;
      i++;
    } else if (prev && prev.changed === segment.changed) prev.text += segment.text;
    else out.push({ ...segment });
  }
  return out;
}
