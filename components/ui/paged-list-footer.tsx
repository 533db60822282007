"use client";

import { Button } from "./button";

/** What a paged list's footer reads of its infinite query. */
interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** Under a paged list in a card: how many rows are shown (", shown" while more exist), and Load more. */
export function PagedListFooter({
  count,
  noun,
  pages,
}: {
  count: number;
  /** Singular and plural, as the count is read: ["agent", "agents"]. */
  noun: [string, string];
  pages: Pages;
}) {
  return (
    <footer className="flex items-center justify-between gap-4 border-t border-line px-5 py-3 text-xs text-muted">
      <span aria-live="polite">
        {count} {count === 1 ? noun[0] : noun[1]}
        {pages.hasNextPage ? " shown" : ""}
      </span>
      {pages.hasNextPage && (
        <Button size="sm" onClick={() => pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
          Load more
        </Button>
      )}
    </footer>
  );
}
