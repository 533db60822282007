import type { ComponentProps, ReactNode } from "react";
import { Card } from "./card";
import { QueryView, type QueryLike } from "./query-view";
import { Skeleton } from "./skeleton";

type Element<D> = D extends readonly (infer R)[] ? R : never;

/**
 * A card whose body is one query's list: skeleton rows while it loads, the "Could not load" notice,
 * the empty state, else the rows in a list named `listLabel`. `rows` picks the list out of the
 * data (a page's `items`); without it the data is the list. `renderRow` returns the `<li>`.
 */
export function ListCard<D, R = Element<D>>({
  query,
  rows,
  renderRow,
  listLabel,
  errorTitle,
  empty,
  pending,
  skeletonRows = 2,
  after,
  ...card
}: Omit<ComponentProps<typeof Card>, "children"> & {
  query: QueryLike<D>;
  rows?: (data: D) => readonly R[];
  renderRow: (row: R) => ReactNode;
  /** The list's accessible name. */
  listLabel: string;
  /** "Could not load …" */
  errorTitle: string;
  empty: ReactNode;
  /** What stands while it loads, when `skeletonRows` bars would not look like the rows. */
  pending?: ReactNode;
  skeletonRows?: number;
  /** Inside the card, after the list: its dialogs. */
  after?: ReactNode;
}) {
  const listOf = rows ?? ((data: D) => data as unknown as readonly R[]);
  return (
    <Card {...card}>
      <QueryView
        query={query}
        pending={
          pending ?? (
            <div role="status" aria-label={`Loading ${listLabel.toLowerCase()}`} className="space-y-2 p-5">
              {Array.from({ length: skeletonRows }, (_, i) => (
                <Skeleton key={i} className="h-12" />
              ))}
            </div>
          )
        }
        errorTitle={errorTitle}
        errorClassName="p-5"
        isEmpty={(data) => listOf(data).length === 0}
        empty={empty}
      >
        {(data) => (
          <ul className="divide-y divide-line" aria-label={listLabel}>
            {listOf(data).map(renderRow)}
          </ul>
        )}
      </QueryView>
      {after}
    </Card>
  );
}
