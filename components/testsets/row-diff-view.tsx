import { inlineChanges, type Segment } from "@/components/diff/line-diff";
import { cn } from "@/components/ui";
import type { CellChange, RowChange } from "./row-diff";
import { cellText, type TestcaseData } from "./testset-table";

/** One changed, added or removed row: its cells, each changed cell with its old and new value. */
export function RowChangeCard({ change }: { change: Exclude<RowChange, { kind: "unchanged" }> }) {
  const label =
    change.kind === "added"
      ? `Row ${change.after + 1} added`
      : change.kind === "removed"
        ? `Row ${change.before + 1} removed`
        : change.before === change.after
          ? `Row ${change.after + 1} changed`
          : `Row ${change.before + 1} → ${change.after + 1} changed`;
  return (
    <article
      data-testid="row-change"
      data-kind={change.kind}
      className={cn(
        "min-w-0 overflow-hidden rounded-lg border",
        change.kind === "added" ? "border-success/40" : change.kind === "removed" ? "border-danger/40" : "border-line",
      )}
    >
      <h3
        className={cn(
          "px-3 py-1.5 text-xs font-medium",
          change.kind === "added"
            ? "bg-success-soft text-success"
            : change.kind === "removed"
              ? "bg-danger-soft text-danger"
              : "bg-surface-muted text-muted",
        )}
      >
        {label}
      </h3>
      <dl className="divide-y divide-line/60 text-sm">
        {change.kind === "changed"
          ? change.cells.map((cell) => <CellLine key={cell.column} cell={cell} />)
          : wholeRow(change.row, change.kind)}
      </dl>
    </article>
  );
}

function wholeRow(row: TestcaseData, kind: "added" | "removed") {
  return Object.entries(row).map(([column, value]) => (
    <CellLine
      key={column}
      cell={{
        column,
        kind,
        before: kind === "removed" ? cellText(value) : "",
        after: kind === "added" ? cellText(value) : "",
      }}
    />
  ));
}

const LONG = 4_000;

function CellLine({ cell }: { cell: CellChange }) {
  // Word emphasis costs a diff of the two texts; very long cells show whole values instead.
  const segments =
    cell.kind === "changed" && cell.before.length + cell.after.length < LONG
      ? inlineChanges(cell.before, cell.after)
      : null;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-x-3 px-3 py-1.5 sm:grid-cols-[10rem_minmax(0,1fr)]">
      <dt className="truncate font-mono text-xs text-muted" title={cell.column}>
        {cell.column}
        {cell.kind === "unchanged" ? "" : ` (${cell.kind})`}
      </dt>
      <dd className="flex min-w-0 flex-col gap-1">
        {cell.kind === "unchanged" && <Value text={cell.after} />}
        {(cell.kind === "changed" || cell.kind === "removed") && (
          <Value text={cell.before} tone="removed" segments={segments?.left} />
        )}
        {(cell.kind === "changed" || cell.kind === "added") && (
          <Value text={cell.after} tone="added" segments={segments?.right} />
        )}
      </dd>
    </div>
  );
}

function Value({ text, tone, segments }: { text: string; tone?: "added" | "removed"; segments?: Segment[] }) {
  return (
    <p
      className={cn(
        "max-h-48 overflow-auto rounded px-1.5 py-0.5 break-words whitespace-pre-wrap [overflow-wrap:anywhere]",
        tone === "added" && "bg-success-soft",
        tone === "removed" && "bg-danger-soft",
        !tone && "text-muted",
      )}
    >
      {tone && <span className="sr-only">{tone === "added" ? "after: " : "before: "}</span>}
      {segments
        ? segments.map((s, i) =>
            s.changed ? (
              <mark
                key={i}
                className={cn("rounded-[2px] text-inherit", tone === "added" ? "bg-success/25" : "bg-danger/25")}
              >
                {s.text}
              </mark>
            ) : (
              <span key={i}>{s.text}</span>
            ),
          )
        : text || <span className="text-muted italic">empty</span>}
    </p>
  );
}
