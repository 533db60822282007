"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button, Notice, buttonClass, describeLoadError } from "@/components/ui";

/**
 * What an `error.tsx` of the history, diff, deploy and environment pages renders: the message
 * in words, a retry when it can help, and a way out. Never a blank page.
 */
export function RouteError({
  error,
  retry,
  title,
  backHref,
  backLabel,
}: {
  error: unknown;
  retry: () => void;
  title: string;
  backHref: string;
  backLabel: string;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  // Production builds replace server errors' messages with a generic one; say so plainly then.
  const text = describeLoadError(error);
  const message = digest
    ? "The server could not render this page. Try again; if it keeps failing, the server log has the details."
    : text.message;
  const canRetry = digest !== undefined || text.retry;
  return (
    <div className="flex w-full max-w-3xl flex-col gap-4 px-4 py-10 md:px-6">
      <Notice
        tone="danger"
        title={title}
        action={
          <div className="flex gap-2">
            {canRetry && (
              <Button size="sm" onClick={retry}>
                Try again
              </Button>
            )}
            <Link href={backHref} className={buttonClass({ size: "sm", variant: "ghost" })}>
              {backLabel}
            </Link>
          </div>
        }
      >
        {message}
        {digest && <span className="mt-1 block font-mono text-xs text-muted">Reference: {digest}</span>}
      </Notice>
    </div>
  );
}
