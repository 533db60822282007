"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button, Notice, buttonClass } from "@/components/ui";

/** What an agents route shows when rendering failed: a readable message and a way on, never a blank page. */
export function RouteError({ error, retry }: { error: unknown; retry?: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const message = error instanceof Error ? error.message : String(error);
  const digest = error instanceof Error && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-10 md:px-8">
      <Notice
        tone="danger"
        title="Something went wrong on this page"
        action={
          <div className="flex gap-2">
            {retry && (
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
