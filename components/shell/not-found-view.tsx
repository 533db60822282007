import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui";

/**
 * What a missing page, agent or revision answers (with a 404 status): what happened in plain
 * words and where to go instead. No retry: asking again finds nothing more.
 */
export function NotFoundView({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex w-full max-w-xl flex-col items-start gap-4 px-4 py-16 md:px-6" data-testid="not-found">
      <p className="font-mono text-sm font-semibold text-accent">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-balance">{title}</h1>
      <div className="text-base text-muted">{children}</div>
      <div className="flex flex-wrap gap-2 pt-2">
        <Link href="/agents" className={buttonClass({ variant: "primary" })}>
          Go to your agents
        </Link>
        <Link href="/" className={buttonClass()}>
          Overview
        </Link>
      </div>
    </div>
  );
}
