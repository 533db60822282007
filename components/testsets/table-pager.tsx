import { Button, PlusIcon } from "@/components/ui";

/** Which rows are shown of how many, and the way to the other pages. */
export function TablePager({
  page,
  pages,
  pageSize,
  total,
  onPage,
  onAddRow,
}: {
  page: number;
  pages: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onAddRow?: () => void;
}) {
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <nav
      aria-label="Pages of rows"
      className="flex flex-wrap items-center justify-between gap-2 border-t border-line px-3 py-2 text-xs text-muted"
    >
      <span aria-live="polite" data-testid="row-range" className="tabular-nums">
        Rows {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {total.toLocaleString("en-US")}
      </span>
      <span className="flex items-center gap-1">
        {onAddRow && (
          <Button size="sm" variant="ghost" onClick={onAddRow}>
            <PlusIcon className="size-3" /> Add row
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={() => onPage(0)} disabled={page === 0} aria-label="First page">
          «
        </Button>
        <Button size="sm" onClick={() => onPage(page - 1)} disabled={page === 0}>
          Previous
        </Button>
        <span className="px-1 tabular-nums">
          {page + 1} / {pages}
        </span>
        <Button size="sm" onClick={() => onPage(page + 1)} disabled={page >= pages - 1}>
          Next
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => onPage(pages - 1)}
          disabled={page >= pages - 1}
          aria-label="Last page"
        >
          »
        </Button>
      </span>
    </nav>
  );
}
