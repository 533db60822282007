"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { EditableTitle, useToast } from "@/components/ui";
import type { AgentDetails } from "./types";
import { useRefreshAgent } from "./use-refresh-agent";

/** The agent's name as the page title, renamed in place. */
export function AgentName({ agent }: { agent: AgentDetails["agent"] }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshAgent();
  const rename = useMutation(
    trpc.agents.rename.mutationOptions({
      onSuccess: () => refresh(agent.id),
      onError: (error) => toast({ title: "Could not rename the agent", description: error.message, tone: "danger" }),
    }),
  );
  return (
    <EditableTitle
      value={agent.name ?? agent.slug}
      noun="agent"
      pending={rename.isPending}
      onRename={(name) => rename.mutateAsync({ id: agent.id, name })}
      className="text-lg!"
    />
  );
}
