import { Skeleton } from "@/components/ui";

export function HistorySkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div role="status" aria-label="Loading history" className="divide-y divide-line">
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex items-center gap-4 px-4 py-3.5">
          <Skeleton className="size-4" />
          <Skeleton className="h-4 w-8" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-16" />
        </div>
      ))}
    </div>
  );
}
