import { Skeleton } from "@/components/ui";

/** The editor's shape while the revision, catalog and schema load. */
export function AgentEditorSkeleton() {
  return (
    <div role="status" aria-label="Loading the editor" className="flex flex-1 flex-col">
      <div className="flex h-12 items-center gap-4 border-b border-line px-4 md:px-6">
        <Skeleton className="h-7 w-32 rounded-lg" />
        <Skeleton className="h-5 w-10 rounded-full" />
        <Skeleton className="h-4 w-64" />
      </div>
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-5 px-4 py-5 md:px-6">
        {[18, 8, 10].map((height, i) => (
          <div key={i} className="rounded-xl border border-line bg-surface p-5">
            <Skeleton className="mb-2 h-4 w-28" />
            <Skeleton className="mb-5 h-3 w-72" />
            <Skeleton className="w-full rounded-lg" />
            <div style={{ height: `${height * 0.75}rem` }} className="animate-pulse rounded-lg bg-surface-muted" />
          </div>
        ))}
      </div>
    </div>
  );
}
