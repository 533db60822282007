import type { ComponentProps } from "react";
import { cn } from "@/components/ui";

/** A native select with the house input styling (the browser's own menu stays keyboard and screen-reader friendly). */
export function SelectInput({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative">
      <select
        className={cn(
          "h-8 w-full cursor-pointer appearance-none rounded-md border border-line bg-surface pr-8 pl-2.5 text-sm text-foreground shadow-xs transition-colors",
          "outline-none hover:border-line-strong focus:border-accent focus:ring-3 focus:ring-accent/20",
          "aria-invalid:border-danger aria-invalid:focus:ring-danger/20 disabled:cursor-default disabled:opacity-60",
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <svg
        viewBox="0 0 24 24"
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-2.5 size-3.5 -translate-y-1/2 text-muted"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.75}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="m6 9 6 6 6-6" />
      </svg>
    </div>
  );
}
