"use client";

import type { Ref } from "react";
import { Input, Spinner, cn, focusRing } from "@/components/ui";
import { SearchIcon } from "./icons";
import { Kbd } from "@/components/ui";

/** Search (debounced by the page, kept in `?q=`) and the archived filter (`?archived=1`). */
export function AgentsToolbar({
  ref,
  search,
  onSearch,
  archived,
  onArchived,
  searching,
}: {
  ref: Ref<HTMLInputElement>;
  search: string;
  onSearch: (value: string) => void;
  archived: boolean;
  onArchived: (value: boolean) => void;
  searching: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-b border-line px-5 py-3">
      <div className="relative w-full max-w-sm">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-3.5 -translate-y-1/2 text-muted" />
        <Input
          ref={ref}
          type="search"
          aria-label="Search agents by name"
          aria-keyshortcuts="/"
          placeholder="Search agents…"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              onSearch("");
              event.currentTarget.blur();
            }
          }}
          className="pr-9 pl-8 [&::-webkit-search-cancel-button]:hidden"
        />
        <span className="absolute top-1/2 right-2 -translate-y-1/2">
          {searching ? <Spinner className="size-3.5 text-muted" /> : <Kbd aria-hidden="true">/</Kbd>}
        </span>
      </div>
      <label
        className={cn(
          "flex cursor-pointer items-center gap-2 rounded-md px-1 text-sm text-muted select-none hover:text-foreground",
          focusRing,
        )}
      >
        <input
          type="checkbox"
          checked={archived}
          onChange={(event) => onArchived(event.target.checked)}
          className="size-3.5 cursor-pointer rounded border-line accent-accent"
        />
        Include archived
      </label>
    </div>
  );
}
