"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/components/trpc";

/** Page size shared by every view of a variant's log, so they share one cache entry. */
export const HISTORY_PAGE_SIZE = 30;

/** A variant's revisions, newest first, paged with the API's cursor. */
export function useVariantHistory(variantId: string) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.agents.history.infiniteQueryOptions(
      { variantId, limit: HISTORY_PAGE_SIZE },
      { getNextPageParam: (last) => last.next },
    ),
  );
  const revisions = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  return { query, revisions };
}
