"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Skeleton } from "@/components/ui";

/** The project the playground acts in; the avatar is its initial. */
export function ProjectName() {
  const trpc = useTRPC();
  const project = useQuery(trpc.project.current.queryOptions());
  if (project.isPending) return <Skeleton className="h-4 w-28" />;
  const name = project.data?.name ?? "Unknown project";
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span
        aria-hidden="true"
        className="flex size-5 shrink-0 items-center justify-center rounded bg-accent-soft text-[11px] font-semibold text-accent"
      >
        {name.charAt(0).toUpperCase()}
      </span>
      <span className="truncate font-medium" data-testid="project-name">
        {name}
      </span>
    </span>
  );
}
