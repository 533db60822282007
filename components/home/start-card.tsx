import Link from "next/link";
import type { ReactNode } from "react";
import { ArrowRightIcon, ExternalIcon, cn, focusRing } from "@/components/ui";

/** A large link to one place to start, on the home page. */
export function StartCard({
  href,
  icon,
  title,
  description,
  external = false,
}: {
  href: string;
  icon: ReactNode;
  title: string;
  description: string;
  external?: boolean;
}) {
  const className = cn(
    "group flex items-start gap-4 rounded-xl border border-line bg-surface p-5 shadow-xs transition-colors hover:border-line-strong hover:bg-surface-muted/40",
    focusRing,
  );
  const body = (
    <>
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent [&_svg]:size-4.5">
        {icon}
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex items-center gap-1.5 text-sm font-semibold">
          {title}
          {external ? (
            <ExternalIcon className="size-3.5 text-muted" />
          ) : (
            <ArrowRightIcon className="size-3.5 text-muted transition-transform group-hover:translate-x-0.5" />
          )}
        </span>
        <span className="text-sm text-muted">{description}</span>
      </span>
    </>
  );
  return external ? (
    <a href={href} target="_blank" rel="noreferrer" className={className}>
      {body}
    </a>
  ) : (
    <Link href={href} className={className}>
      {body}
    </Link>
  );
}
