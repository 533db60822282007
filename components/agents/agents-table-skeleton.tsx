import { Skeleton } from "@/components/ui";

/** Rows shaped like the agents table while it loads. */
export function AgentsTableSkeleton() {
  return (
    <div role="status" aria-label="Loading agents" className="divide-y divide-line">
      {[0, 1, 2, 3].map((row) => (
        <div key={row} className="flex h-14 items-center gap-6 px-5">
          <div className="flex w-56 flex-col gap-1.5">
            <Skeleton className="h-4 w-36" />
            <Skeleton className="h-3 w-24" />
          </div>
          <Skeleton className="h-5 w-9 rounded-full" />
          <Skeleton className="h-5 w-9 rounded-full" />
          <Skeleton className="h-5 w-9 rounded-full" />
          <Skeleton className="h-5 w-9 rounded-full" />
          <Skeleton className="ml-auto h-4 w-48" />
        </div>
      ))}
    </div>
  );
}
