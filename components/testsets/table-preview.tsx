import { cn } from "@/components/ui";
import { cellText, type TestsetTable } from "./testset-table";

const PREVIEW_ROWS = 5;

/** The first rows of a table about to be committed, and how big the whole is; long cells are clamped. */
export function TablePreview({ table, className }: { table: TestsetTable; className?: string }) {
  const shown = table.rows.slice(0, PREVIEW_ROWS);
  return (
    <figure className={cn("flex min-w-0 flex-col gap-1.5", className)} data-testid="import-preview">
      <figcaption className="text-xs text-muted">
        <strong className="font-medium text-foreground tabular-nums">
          {table.rows.length.toLocaleString("en-US")}
        </strong>{" "}
        {table.rows.length === 1 ? "row" : "rows"} ×{" "}
        <strong className="font-medium text-foreground tabular-nums">{table.columns.length}</strong>{" "}
        {table.columns.length === 1 ? "column" : "columns"}
        {table.rows.length > PREVIEW_ROWS && `; the first ${PREVIEW_ROWS} shown`}
      </figcaption>
      <div className="max-h-64 overflow-auto rounded-md border border-line">
        <table className="w-max min-w-full border-collapse text-left text-xs">
          <thead className="sticky top-0 bg-surface-muted">
            <tr>
              {table.columns.map((c) => (
                <th key={c} scope="col" className="max-w-48 truncate px-2 py-1.5 font-medium text-muted" title={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {shown.map((row, i) => (
              <tr key={i}>
                {table.columns.map((c) => (
                  <td key={c} className="max-w-48 px-2 py-1.5 align-top">
                    <span className="line-clamp-2 break-words whitespace-pre-wrap">{cellText(row[c])}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
