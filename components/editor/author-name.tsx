"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";

/** Who made a revision, by name (the id stays in the tooltip). */
export function AuthorName({ id }: { id?: string }) {
  const trpc = useTRPC();
  const authors = useQuery({
    ...trpc.agents.authors.queryOptions({ ids: id ? [id] : [] }),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
  if (!id) return <span>an unknown author</span>;
  const member = authors.data?.[0];
  const name = member?.name ?? member?.email ?? (authors.isPending ? "…" : "a former member");
  return <span title={member ? `${name} <${member.email}>` : id}>{name}</span>;
}
