import type { ReactNode } from "react";

/** A field's label with an optional aside (a default, a count) on the right. */
export function FieldLabel({ htmlFor, children, aside }: { htmlFor: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <label htmlFor={htmlFor} className="text-sm font-medium text-foreground">
        {children}
      </label>
      {aside && <span className="text-xs text-muted">{aside}</span>}
    </div>
  );
}
