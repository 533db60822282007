import type { ComponentProps } from "react";
import { cn } from "./cn";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return (
    <input
      className={cn(
        "h-8 w-full rounded-md border border-line bg-surface px-2.5 text-sm text-foreground shadow-xs transition-colors",
        "placeholder:text-muted/70 outline-none focus:border-accent focus:ring-3 focus:ring-accent/20",
        "aria-invalid:border-danger aria-invalid:focus:ring-danger/20 disabled:opacity-60",
        className,
      )}
      {...props}
    />
  );
}
