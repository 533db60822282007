import { cn } from "./cn";

/** A placeholder block while data loads; hidden from assistive tech (the region says "loading"). */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn("block animate-pulse rounded bg-surface-muted", className)} />;
}
