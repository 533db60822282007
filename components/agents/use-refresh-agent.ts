"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";

/** After a change to an agent: refetch its details and every page of the agents list. */
export function useRefreshAgent() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (agentId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.agents.get.queryKey({ id: agentId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.agents.list.pathKey() }),
    ]);
}
