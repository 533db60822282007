"use client";

import { useId } from "react";
import { cn } from "@/components/ui";

export interface PickableRevision {
  id: string;
  version: string;
  message?: string | null;
  /** The variant it belongs to (its name), shown when it is not the page's variant. */
  variantName?: string;
}

/** A native select of revisions: keyboard and screen-reader friendly for free. */
export function RevisionPicker({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value?: string;
  options: PickableRevision[];
  onChange: (id: string) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 w-full min-w-0 cursor-pointer truncate rounded-md border border-line bg-surface px-2 text-sm shadow-xs outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
      >
        {!value && <option value="">Choose a revision…</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            v{o.version}
            {o.variantName ? ` (${o.variantName})` : ""}
            {o.message ? ` — ${o.message.length > 60 ? `${o.message.slice(0, 57)}…` : o.message}` : ""}
          </option>
        ))}
      </select>
    </div>
  );
}
