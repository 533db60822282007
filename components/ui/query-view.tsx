"use client";

import type { ReactNode } from "react";
import { QueryError } from "./query-error";

/** What QueryView reads of a TanStack (tRPC) query. */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: { message: string; data?: { httpStatus?: number } | null } | null;
  data: T | undefined;
  refetch?: () => unknown;
  isFetching?: boolean;
}

/**
 * The states of a loaded list or record, in one place: `pending` while it loads, a "Could not
 * load" notice when it failed (Retry where asking again can help), `empty` when `isEmpty` says
 * so, otherwise `children` with the data.
 */
export function QueryView<T>({
  query,
  pending,
  errorTitle,
  errorClassName,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  pending: ReactNode;
  /** "Could not load …": what failed to load, as the notice's title. */
  errorTitle: string;
  /** A wrapper's classes for the notice (a card body's padding). */
  errorClassName?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return pending;
  if (query.isError || query.data === undefined) {
    const notice = (
      <QueryError
        title={errorTitle}
        error={query.error ?? { message: "No data" }}
        onRetry={query.refetch ? () => void query.refetch?.() : undefined}
        retrying={query.isFetching}
      />
    );
    return errorClassName ? <div className={errorClassName}>{notice}</div> : notice;
  }
  if (isEmpty?.(query.data)) return empty;
  return children(query.data);
}
