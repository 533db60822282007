"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Skeleton, cn } from "@/components/ui";

/**
 * Who made a revision or a deploy. Rows by the same person share one cached lookup; the id
 * stays in the tooltip, for when a name is not unique.
 */
export function Author({
  id,
  className,
  compact = false,
}: {
  id?: string | null;
  className?: string;
  compact?: boolean;
}) {
  const trpc = useTRPC();
  const authors = useQuery({
    ...trpc.agents.authors.queryOptions({ ids: id ? [id] : [] }),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
  if (!id) return <span className={cn("text-muted", className)}>Unknown</span>;
  if (authors.isPending) return <Skeleton className="h-4 w-20" />;
  const member = authors.data?.[0];
  const name = member?.name ?? member?.email ?? "Former member";
  return (
    <span
      className={cn("inline-flex min-w-0 items-center gap-1.5", className)}
      title={member ? `${name} <${member.email}>` : id}
    >
      <span
        aria-hidden="true"
        className="flex size-5 shrink-0 items-center justify-center rounded-full bg-accent-soft text-[10px] font-semibold text-accent"
      >
        {name.charAt(0).toUpperCase()}
      </span>
      {!compact && <span className="truncate">{name}</span>}
      {compact && <span className="sr-only">{name}</span>}
    </span>
  );
}
