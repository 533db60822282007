import type { ReactNode } from "react";
import { cn } from "./cn";

/** A bordered section of a page with an optional header (title, description, actions). */
export function Card({
  title,
  description,
  actions,
  children,
  className,
  labelledBy,
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Id given to the title, so the section is a named landmark. */
  labelledBy?: string;
}) {
  return (
    <section
      aria-labelledby={title ? labelledBy : undefined}
      className={cn("overflow-hidden rounded-xl border border-line bg-surface shadow-xs", className)}
    >
      {(title || actions) && (
        <header className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-5 py-4">
          <div className="flex min-w-0 flex-col gap-1">
            {title && (
              <h2 id={labelledBy} className="text-sm font-semibold">
                {title}
              </h2>
            )}
            {description && <p className="max-w-prose text-sm text-muted">{description}</p>}
          </div>
          {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
