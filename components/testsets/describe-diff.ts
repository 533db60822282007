import type { RowDiff } from "./row-diff";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The change in sentences a person reads at a glance; also the default commit message. */
export function describeDiff(diff: RowDiff): string[] {
  const lines: string[] = [];
  const { added, removed, changed } = diff.stats;
  if (added) lines.push(`${plural(added, "row", "rows")} added`);
  if (changed) lines.push(`${plural(changed, "row", "rows")} changed`);
  if (removed) lines.push(`${plural(removed, "row", "rows")} removed`);
  if (diff.columns.added.length) lines.push(`Columns added: ${diff.columns.added.join(", ")}`);
  if (diff.columns.removed.length) lines.push(`Columns removed: ${diff.columns.removed.join(", ")}`);
  return lines.length ? lines : ["Column order only"];
}
