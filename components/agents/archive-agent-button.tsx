"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice, useToast } from "@/components/ui";
import { ArchiveIcon } from "./icons";
import type { AgentDetails } from "./types";
import { useRefreshAgent } from "./use-refresh-agent";

/** Archive asks first; unarchive does not (nothing is lost either way, but archiving hides the agent). */
export function ArchiveAgentButton({ agent }: { agent: AgentDetails["agent"] }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshAgent();
  const [confirming, setConfirming] = useState(false);
  const archived = Boolean(agent.deleted_at);
  const name = agent.name ?? agent.slug;
  const setArchived = useMutation(
    trpc.agents.setArchived.mutationOptions({
      onSuccess: async (_, { archived: now }) => {
        await refresh(agent.id);
        setConfirming(false);
        toast({
          title: now ? "Agent archived" : "Agent restored",
          description: now ? `${name} is hidden from the agents list.` : `${name} is active again.`,
        });
      },
    }),
  );

  if (archived) {
    return (
      <Button onClick={() => setArchived.mutate({ id: agent.id, archived: false })} loading={setArchived.isPending}>
        <ArchiveIcon className="size-3.5" />
        Unarchive
      </Button>
    );
  }

  return (
    <>
      <Button variant="ghost" onClick={() => setConfirming(true)}>
        <ArchiveIcon className="size-3.5" />
        Archive
      </Button>
      <Dialog
        open={confirming}
        onClose={() => !setArchived.isPending && setConfirming(false)}
        role="alertdialog"
        title={`Archive ${name}?`}
        description="It leaves the agents list (turn on “Include archived” to see it). Its revisions stay readable and you can unarchive it at any time."
        footer={
          <>
            <Button onClick={() => setConfirming(false)} disabled={setArchived.isPending} data-autofocus>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={setArchived.isPending}
              onClick={() => setArchived.mutate({ id: agent.id, archived: true })}
            >
              Archive agent
            </Button>
          </>
        }
      >
        {setArchived.error && (
          <Notice tone="danger" title="Could not archive the agent">
            {setArchived.error.message}
          </Notice>
        )}
      </Dialog>
    </>
  );
}
