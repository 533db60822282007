"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button, Notice, buttonClass, describeLoadError } from "@/components/ui";

/** What an agents route shows when rendering failed: a readable message and a way on, never a blank page. */
export function RouteError({ error, retry }: { error: unknown; retry?: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest =
    error instanceof Error && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  const text = describeLoadError(error);
  // A server render failure (digest) or a failed request may pass; a bad address will not.
  const canRetry = retry && (digest !== "" || text.retry);
  const message = digest ? "The server could not render this page." : text.message;
  return (
    <div className="flex w-full max-w-3xl flex-col gap-4 px-4 py-10 md:px-6">
      <Notice
        tone="danger"
        title="Something went wrong on this page"
        action={
          <div className="flex gap-2">
            {canRetry && (
              <Button size="sm" onClick={retry}>
                Try again
              </Button>
            )}
            <Link href="/agents" className={buttonClass({ size: "sm", variant: "ghost" })}>
              All agents
            </Link>
          </div>
        }
      >
        <p>{message || "The page failed to render."}</p>
        {digest && <p className="mt-1 font-mono text-xs text-muted">Reference: {digest}</p>}
      </Notice>
    </div>
  );
}
