import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * Plain semantic table parts with the house styling; scrolls sideways on narrow screens, or with
 * `stacked` shows each row as a card of labelled lines on a phone (globals.css), where a
 * sideways-scrolling list would hide most of its columns. Cells of a stacked table name their
 * column with `label`.
 */
export function Table({ className, stacked, ...props }: ComponentProps<"table"> & { stacked?: boolean }) {
  return (
    // `relative` keeps absolutely positioned content (sr-only labels) inside the scroll box.
    <div className="relative w-full overflow-x-auto" data-table-scroll>
      <table
        data-stacked={stacked || undefined}
        className={cn("w-full border-collapse text-left text-sm", className)}
        {...props}
      />
    </div>
  );
}

/** The `<thead>`: wraps the row of column headers. */
export function TableHeaderGroup({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("border-b border-line bg-surface-muted/60", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-line", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("h-12 transition-colors hover:bg-surface-muted/40", className)} {...props} />;
}

/** One column header cell (`<th>`), inside a `TableHeaderGroup` row. */
export function TableColumnHeader({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      scope="col"
      className={cn("px-4 py-2 text-xs font-medium whitespace-nowrap text-muted first:pl-5 last:pr-5", className)}
      {...props}
    />
  );
}

/** `label`: the column's name, shown above the value when a stacked table stacks. */
export function TableCell({ className, label, ...props }: ComponentProps<"td"> & { label?: string }) {
  // `cn` does not merge conflicting utilities, and `whitespace-nowrap` comes after
  // `whitespace-normal` in the stylesheet: a cell that says how it wraps gets no default.
  const wraps = /(^|\s)whitespace-/.test(className ?? "");
  return (
    <td
      data-label={label}
      className={cn("px-4 py-2 align-middle first:pl-5 last:pr-5", !wraps && "whitespace-nowrap", className)}
      {...props}
    />
  );
}
