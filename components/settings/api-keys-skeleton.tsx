import { Skeleton } from "@/components/ui";

/** Rows shaped like the table while the list loads. */
export function ApiKeysSkeleton() {
  return (
    <div role="status" aria-label="Loading API keys" className="divide-y divide-line">
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex items-center gap-6 px-5 py-3.5">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-20" />
          <Skeleton className="ml-auto h-5 w-16 rounded-full" />
        </div>
      ))}
    </div>
  );
}
