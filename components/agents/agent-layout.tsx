"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import type { ReactNode } from "react";
import { useTRPC } from "@/components/trpc";
import { Notice, buttonClass, describeLoadError } from "@/components/ui";
import { AgentHeader, AgentHeaderSkeleton } from "./agent-header";

/** Every page of one agent: its header (name, variant, archive, tabs) above the page. */
export function AgentLayout({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const params = useParams<{ id: string; variantId?: string }>();
  const agent = useQuery(trpc.agents.get.queryOptions({ id: params.id }));

  if (agent.isError) {
    const text = describeLoadError(agent.error);
    const notFound = text.notFound;
    return (
      <div className="flex w-full max-w-3xl flex-col gap-4 px-4 py-10 md:px-6">
        <Notice
          tone="danger"
          title={notFound ? "This agent does not exist" : "Could not load the agent"}
          action={
            !text.retry ? (
              <Link href="/agents" className={buttonClass({ size: "sm" })}>
                All agents
              </Link>
            ) : (
              <button type="button" className={buttonClass({ size: "sm" })} onClick={() => agent.refetch()}>
                Retry
              </button>
            )
          }
        >
          {notFound ? "It may have been deleted, or the link is incomplete." : text.message}
        </Notice>
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {agent.data ? <AgentHeader details={agent.data} variantId={params.variantId} /> : <AgentHeaderSkeleton />}
      {children}
    </div>
  );
}
