import { diffSequences } from "@/components/diff/myers";
import { stableStringify } from "@/shared/stable-json";
import { cellText, columnsOf, type TestcaseData } from "./testset-table";

export interface CellChange {
  column: string;
  kind: "unchanged" | "added" | "removed" | "changed";
  before: string;
  after: string;
}

/** Row positions are 0-based indexes into the old (`before`) and new (`after`) revision. */
export type RowChange =
  | { kind: "unchanged"; before: number; after: number }
  | { kind: "added"; after: number; row: TestcaseData }
  | { kind: "removed"; before: number; row: TestcaseData }
  | { kind: "changed"; before: number; after: number; cells: CellChange[] };

export interface RowDiff {
  changes: RowChange[];
  stats: { added: number; removed: number; changed: number; unchanged: number };
  columns: { added: string[]; removed: string[] };
}

/**
 * Row by row, then cell by cell: rows are matched on their whole content (a shortest edit
 * script, the same Myers the template diff uses), and within a run of removed then added rows
 * the n-th removed pairs with the n-th added as one changed row, whose cells are compared.
 */
export function diffRows(before: readonly TestcaseData[], after: readonly TestcaseData[]): RowDiff {
  const keysA = before.map((row) => stableStringify(row));
  const keysB = after.map((row) => stableStringify(row));
  const changes: RowChange[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++)
      changes.push({
        kind: "changed",
        before: removed[k],
        after: added[k],
        cells: diffCells(before[removed[k]], after[added[k]]),
      });
    for (const i of removed.slice(paired)) changes.push({ kind: "removed", before: i, row: before[i] });
    for (const i of added.slice(paired)) changes.push({ kind: "added", after: i, row: after[i] });
    removed = [];
    added = [];
  };
  for (const edit of diffSequences(keysA, keysB)) {
    if (edit.type === "delete") removed.push(edit.aIndex);
    else if (edit.type === "insert") added.push(edit.bIndex);
    else {
      flush();
      changes.push({ kind: "unchanged", before: edit.aIndex, after: edit.bIndex });
    }
  }
  flush();
  const count = (kind: RowChange["kind"]) => changes.filter((c) => c.kind === kind).length;
  const columnsA = columnsOf(before);
  const columnsB = columnsOf(after);
  return {
    changes,
    stats: {
      added: count("added"),
      removed: count("removed"),
      changed: count("changed"),
      unchanged: count("unchanged"),
    },
    columns: {
      added: columnsB.filter((c) => !columnsA.includes(c)),
      removed: columnsA.filter((c) => !columnsB.includes(c)),
    },
  };
}

export function diffCells(before: TestcaseData, after: TestcaseData): CellChange[] {
  return columnsOf([before, after]).map((column) => {
    const inA = column in before;
    const inB = column in after;
    const a = cellText(before[column]);
    const b = cellText(after[column]);
    const kind = !inA
      ? "added"
      : !inB
        ? "removed"
        : stableStringify(before[column]) === stableStringify(after[column])
          ? "unchanged"
          : "changed";
    return { column, kind, before: a, after: b };
  });
}

export const hasRowChanges = (diff: RowDiff) =>
  diff.stats.added + diff.stats.removed + diff.stats.changed > 0 ||
  diff.columns.added.length + diff.columns.removed.length > 0;
