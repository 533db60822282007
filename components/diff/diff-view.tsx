"use client";

import { Fragment, useMemo, useState, type ReactNode } from "react";
import { Button, cn, focusRing } from "@/components/ui";
import { DiffLineCells } from "./diff-line-cell";
import { DiffStatsBadge } from "./diff-stats";
import { diffStats, foldUnchanged, hasChanges, inlineChanges, type DiffRow } from "./line-diff";

export interface DiffViewProps {
  rows: DiffRow[];
  /** Headings of the two columns, e.g. the versions compared. */
  leftLabel: ReactNode;
  rightLabel: ReactNode;
  /** Unchanged lines shown around each change; the rest fold away. */
  context?: number;
  /** Opens every fold (the page's "expand all", kept by the caller for its shortcut). */
  expandAll?: boolean;
  onExpandAllChange?: (expandAll: boolean) => void;
  /** Caps the height and scrolls inside (dialogs). */
  maxHeightClass?: string;
  /** Accessible name of the diff table. */
  label: string;
  className?: string;
}

/**
 * Side-by-side diff with line numbers, red/green lines, word-level emphasis on changed lines and
 * long unchanged runs folded behind "show N unchanged lines".
 */
export function DiffView({
  rows,
  leftLabel,
  rightLabel,
  context = 3,
  expandAll,
  onExpandAllChange,
  maxHeightClass,
  label,
  className,
}: DiffViewProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [ownExpandAll, setOwnExpandAll] = useState(false);
  const allOpen = expandAll ?? ownExpandAll;
  const setAllOpen = onExpandAllChange ?? setOwnExpandAll;
  const blocks = useMemo(
    () => (allOpen ? [{ type: "rows" as const, start: 0, rows }] : foldUnchanged(rows, { context, expanded })),
    [rows, context, expanded, allOpen],
  );
  const stats = useMemo(() => diffStats(rows), [rows]);
  const changed = hasChanges(rows);
  const foldable = useMemo(() => foldUnchanged(rows, { context }).some((b) => b.type === "fold"), [rows, context]);

  return (
    <div className={cn("overflow-hidden rounded-lg border border-line bg-surface", className)}>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line bg-surface-muted/60 px-3 py-2">
        <div className="flex items-center gap-3 text-xs text-muted">
          <DiffStatsBadge stats={stats} />
          {!changed && <span>No differences</span>}
        </div>
        {foldable && (
          <Button size="sm" variant="ghost" onClick={() => setAllOpen(!allOpen)} aria-pressed={allOpen}>
            {allOpen ? "Collapse unchanged lines" : "Expand all lines"}
          </Button>
        )}
      </div>
      <div className={cn("overflow-auto", maxHeightClass)}>
        <table aria-label={label} className="w-full table-fixed border-collapse font-mono text-xs leading-5">
          <colgroup>
            <col className="w-12" />
            <col />
            <col className="w-12" />
            <col />
          </colgroup>
          <thead className="sticky top-0 z-[1] bg-surface font-sans text-xs">
            <tr className="border-b border-line">
              <th scope="col" colSpan={2} className="px-3 py-2 text-left font-medium">
                {leftLabel}
              </th>
              <th scope="col" colSpan={2} className="border-l border-line px-3 py-2 text-left font-medium">
                {rightLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {blocks.map((block) =>
              block.type === "fold" ? (
                <tr key={block.id} className="border-y border-line/70 bg-accent-soft/40">
                  <td colSpan={4} className="p-0">
                    <button
                      type="button"
                      onClick={() => setExpanded((open) => new Set(open).add(block.id))}
                      className={cn(
                        "flex w-full items-center gap-2 px-3 py-1.5 text-left font-sans text-xs text-accent hover:bg-accent-soft",
                        focusRing,
                      )}
                      data-testid="diff-fold"
                    >
                      <FoldIcon />
                      Show {block.rows.length} unchanged {block.rows.length === 1 ? "line" : "lines"}
                    </button>
                  </td>
                </tr>
              ) : (
                <Fragment key={`rows-${block.start}`}>
                  {block.rows.map((row) => (
                    <Row key={`${row.left?.number ?? "_"}-${row.right?.number ?? "_"}`} row={row} />
                  ))}
                </Fragment>
              ),
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Row({ row }: { row: DiffRow }) {
  const inline = useMemo(() => (row.kind === "changed" ? inlineChanges(row.left!.text, row.right!.text) : null), [row]);
  return (
    <tr
      data-testid="diff-row"
      data-kind={row.kind}
      className="[&>td:nth-child(3)]:border-l [&>td:nth-child(3)]:border-line"
    >
      <DiffLineCells
        line={row.left}
        cellTone={row.kind === "removed" || row.kind === "changed" ? "removed" : "plain"}
        segments={inline?.left}
      />
      <DiffLineCells
        line={row.right}
        cellTone={row.kind === "added" || row.kind === "changed" ? "added" : "plain"}
        segments={inline?.right}
      />
    </tr>
  );
}

function FoldIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="size-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="m8 9 4-4 4 4M8 15l4 4 4-4" />
    </svg>
  );
}
