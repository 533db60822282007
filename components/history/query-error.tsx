"use client";

import { Button, Notice } from "@/components/ui";

/** A failed query as a readable message with a retry; a 404 says what was not found. */
export function QueryError({ title, error, onRetry, retrying }: { title: string; error: { message: string; data?: { httpStatus?: number } | null }; onRetry?: () => void; retrying?: boolean }) {
  const status = error.data?.httpStatus;
  return (
    <Notice
      tone="danger"
      title={status === 404 ? `${title}: not found` : title}
      action={
        onRetry && status !== 404 ? (
          <Button size="sm" onClick={onRetry} loading={retrying}>
            Retry
          </Button>
        ) : undefined
      }
    >
      {error.message}
    </Notice>
  );
}
