import type { ReactNode } from "react";

/** Title row of a page: what it is, one line on what it is for, and its main actions. */
export function PageHeader({
  title,
  heading,
  description,
  actions,
}: {
  /** The page's name, drawn as its h1. */
  title?: ReactNode;
  /** A heading of its own instead (an editable title draws its h1 itself). */
  heading?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        {heading ?? <h1 className="text-xl font-semibold tracking-tight">{title}</h1>}
        {description && <p className="max-w-2xl text-sm text-muted">{description}</p>}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  );
}
