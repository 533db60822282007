import Link from "next/link";
import { Badge, Skeleton, cn, focusRing } from "@/components/ui";
import { AgentName } from "./agent-name";
import { AgentTabs } from "./agent-tabs";
import { ArchiveAgentButton } from "./archive-agent-button";
import type { AgentDetails } from "./types";
import { VariantSwitcher } from "./variant-switcher";

export function AgentHeader({ details, variantId }: { details: AgentDetails; variantId?: string }) {
  const { agent, variants } = details;
  const archived = Boolean(agent.deleted_at);
  return (
    <header className="border-b border-line bg-surface px-4 pt-4 md:px-6">
      <nav aria-label="Breadcrumb" className="mb-1 text-xs text-muted">
        <Link href="/agents" className={cn("rounded hover:text-foreground", focusRing)}>
          Agents
        </Link>
        <span aria-hidden="true" className="mx-1.5 text-line-strong">
          /
        </span>
        <span className="font-mono">{agent.slug}</span>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex min-w-0 items-center gap-2.5">
          <AgentName agent={agent} />
          {archived && (
            <Badge tone="warning" dot>
              Archived
            </Badge>
          )}
        </div>
        <div className="flex items-center gap-2">
          {variantId && <VariantSwitcher agentId={agent.id} variantId={variantId} variants={variants} />}
          <ArchiveAgentButton agent={agent} />
        </div>
      </div>
      {variantId ? <AgentTabs agentId={agent.id} variantId={variantId} /> : <div className="h-3" />}
    </header>
  );
}

export function AgentHeaderSkeleton() {
  return (
    <div role="status" aria-label="Loading agent" className="border-b border-line bg-surface px-4 pt-4 md:px-6">
      <Skeleton className="mb-2 h-3 w-32" />
      <div className="flex items-center justify-between">
        <Skeleton className="h-6 w-56" />
        <Skeleton className="h-8 w-40" />
      </div>
      <div className="mt-3 flex gap-6 pb-3">
        <Skeleton className="h-4 w-14" />
        <Skeleton className="h-4 w-14" />
        <Skeleton className="h-4 w-14" />
      </div>
    </div>
  );
}
