import type { ReactNode } from "react";
import { cn } from "@/components/ui";

/** One titled card of the form; `id` is the anchor problems link to. */
export function FormSection({
  id,
  title,
  description,
  actions,
  children,
  invalid = false,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  invalid?: boolean;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={cn(
        "scroll-mt-32 rounded-xl border bg-surface shadow-xs transition-colors",
        invalid ? "border-danger/50" : "border-line",
      )}
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-5 py-3.5">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h2 id={`${id}-title`} className="text-sm font-semibold">
            {title}
          </h2>
          {description && <p className="text-xs text-muted">{description}</p>}
        </div>
        {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
      </header>
      <div className="flex flex-col gap-5 p-5">{children}</div>
    </section>
  );
}
