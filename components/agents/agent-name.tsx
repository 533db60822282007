"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc";
import { Input, cn, focusRing, useToast } from "@/components/ui";
import { PencilIcon } from "./icons";
import type { AgentDetails } from "./types";
import { useRefreshAgent } from "./use-refresh-agent";

/** The agent's name as the page title; click the pencil (or the name) to rename it in place. */
export function AgentName({ agent }: { agent: AgentDetails["agent"] }) {
  const trpc = useTRPC();
  const toast = useToast();
  const refresh = useRefreshAgent();
  const current = agent.name ?? agent.slug;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(current);
  const rename = useMutation(
    trpc.agents.rename.mutationOptions({
      onSuccess: async () => {
        await refresh(agent.id);
        setEditing(false);
      },
      onError: (error) => toast({ title: "Could not rename the agent", description: error.message, tone: "danger" }),
    }),
  );

  function start() {
    setDraft(current);
    setEditing(true);
  }

  function save(event?: FormEvent) {
    event?.preventDefault();
    const name = draft.trim();
    if (name === "" || name === current) return setEditing(false);
    rename.mutate({ id: agent.id, name });
  }

  if (editing) {
    return (
      <form onSubmit={save} className="flex items-center">
        <Input
          aria-label="Agent name"
          autoFocus
          value={draft}
          maxLength={256}
          disabled={rename.isPending}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => save()}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.preventDefault();
              setEditing(false);
            }
          }}
          className="h-8 w-72 text-lg! font-semibold tracking-tight"
        />
      </form>
    );
  }

  return (
    <div className="group flex min-w-0 items-center gap-1">
      <h1 className="truncate text-lg font-semibold tracking-tight" onDoubleClick={start}>
        {current}
      </h1>
      <button
        type="button"
        onClick={start}
        aria-label="Rename agent"
        title="Rename"
        className={cn(
          "rounded-md p-1 text-muted opacity-60 transition group-hover:opacity-100 hover:bg-surface-muted hover:text-foreground",
          focusRing,
        )}
      >
        <PencilIcon className="size-3.5" />
      </button>
    </div>
  );
}
