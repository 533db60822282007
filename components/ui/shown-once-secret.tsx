"use client";

import type { ReactNode } from "react";
import { CopyButton } from "./copy-button";
import { Notice } from "./notice";

/**
 * A secret the server returns once (a new API key, a webhook's signing secret): a warning that
 * it will not be shown again, the value selected on focus, and a copy button.
 */
export function ShownOnceSecret({
  id,
  label,
  value,
  copyLabel,
  title,
  warning,
  children,
}: {
  id: string;
  label: ReactNode;
  value: string;
  copyLabel: string;
  title: string;
  /** What the person needs the secret for, after "It will not be shown again." */
  warning: ReactNode;
  /** Shown under the value. */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4">
      <Notice tone="warning" title={title}>
        It will not be shown again. {warning}
      </Notice>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <div className="flex items-center gap-2">
          <input
            id={id}
            readOnly
            value={value}
            onFocus={(event) => event.currentTarget.select()}
            spellCheck={false}
            data-testid={id}
            className="h-8 min-w-0 flex-1 rounded-md border border-line bg-surface-muted px-2.5 font-mono text-xs text-foreground outline-none focus:border-accent focus:ring-3 focus:ring-accent/20"
          />
          <CopyButton value={value} label={copyLabel} />
        </div>
      </div>
      {children}
    </div>
  );
}
