"use client";

import type { ReactNode } from "react";
import { Button, Card, Notice, Skeleton } from "@/components/ui";

/** A Settings card over one kind of control: its rows, a remove button per row for owners, and the add form. */
export function ControlCard<T extends { id: string }>({
  title,
  testId,
  description,
  query,
  empty,
  row,
  form,
  canChange,
  onRemove,
}: {
  title: string;
  testId: string;
  description: ReactNode;
  query: { data?: T[]; isPending: boolean; error: { message: string } | null };
  empty: string;
  row: (item: T) => ReactNode;
  form?: ReactNode;
  canChange: boolean;
  onRemove: (item: T) => void;
}) {
  return (
    <Card title={title} labelledBy={`${testId}-title`} description={description}>
      <div className="flex flex-col gap-4 p-5" data-testid={testId}>
        {query.isPending ? (
          <Skeleton className="h-10 w-full max-w-lg" />
        ) : query.error ? (
          <Notice tone="danger">{query.error.message}</Notice>
        ) : query.data?.length ? (
          <ul className="flex flex-col divide-y divide-line">
            {query.data.map((item) => (
              <li key={item.id} className="flex items-start justify-between gap-4 py-3">
                <div className="min-w-0 flex-1">{row(item)}</div>
                {canChange && (
                  <Button size="sm" variant="ghost" onClick={() => onRemove(item)}>
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">{empty}</p>
        )}
        {canChange && form}
      </div>
    </Card>
  );
}
