"use client";

import { Button } from "./button";
import { describeLoadError } from "./load-error";
import { Notice } from "./notice";

/** A failed query in words a person understands; Retry only where asking again can help. */
export function QueryError({
  title,
  error,
  onRetry,
  retrying,
}: {
  title: string;
  error: { message: string; data?: { httpStatus?: number } | null };
  onRetry?: () => void;
  retrying?: boolean;
}) {
  const text = describeLoadError(error);
  return (
    <Notice
      tone="danger"
      title={text.notFound ? `${title}: not found` : title}
      action={
        onRetry && text.retry ? (
          <Button size="sm" onClick={onRetry} loading={retrying}>
            Retry
          </Button>
        ) : undefined
      }
    >
      {text.message}
    </Notice>
  );
}
