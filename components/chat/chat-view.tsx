"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useAgentDeployments } from "@/components/deploy/use-agent-deployments";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { ChatPanel } from "./chat-panel";
import type { ChatTarget } from "./chat-target";

interface TargetOption {
  value: string;
  label: string;
  target: ChatTarget;
}

/**
 * `/agents/[id]/variants/[variantId]/chat`: a chat with a committed template: the variant's latest
 * revision, one revision (`?revision=`, linked from History), or what an environment runs.
 */
export function ChatView({ agentId, variantId, revisionId }: { agentId: string; variantId: string; revisionId?: string }) {
  const trpc = useTRPC();
  const { environments } = useAgentDeployments(agentId);
  const revision = useQuery({ ...trpc.agents.revision.queryOptions({ id: revisionId ?? "" }), enabled: Boolean(revisionId) });
  const options = useMemo(() => {
    const out: TargetOption[] = [{ value: "latest", label: "Latest revision of this variant", target: { kind: "variant", variantId } }];
    if (revisionId) {
      const version = revision.data?.version;
      out.unshift({ value: `revision:${revisionId}`, label: version ? `Revision v${version}` : "The chosen revision", target: { kind: "revision", revisionId } });
    }
    for (const { environment, deployment } of environments) {
      if (!deployment) continue;
      out.push({
        value: `environment:${environment.slug}`,
        label: `${environment.name ?? environment.slug}: what it runs now (v${deployment.revision.version})`,
        target: { kind: "environment", environmentSlug: environment.slug, key: deployment.key },
      });
    }
    return out;
  }, [environments, revision.data?.version, revisionId, variantId]);
  const [chosen, setChosen] = useState(options[0].value);
  const option = options.find((o) => o.value === chosen) ?? options[0];

  return (
    <div className="flex h-[calc(100vh-12rem)] min-h-[420px] flex-col overflow-hidden rounded-xl border border-line bg-surface">
      <div className="flex flex-wrap items-center gap-2 border-b border-line px-4 py-2.5">
        <label htmlFor="chat-target" className="text-sm font-medium">
          Chat with
        </label>
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <SelectInput id="chat-target" value={option.value} onChange={(e) => setChosen(e.target.value)}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectInput>
        </div>
      </div>
      {/* A new target is a new conversation: its history came from another template. */}
      <ChatPanel key={option.value} target={option.target} emptyHint="Send a message to run this agent. Each turn shows its tokens, cost and trace." />
    </div>
  );
}
