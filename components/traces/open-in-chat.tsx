"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { chatPath } from "@/components/chat/chat-paths";
import { useTRPC } from "@/components/trpc";
import { buttonClass } from "@/components/ui";
import type { TraceRun } from "@/shared/trace-messages";

/**
 * Opens the run in its agent's chat: the agent comes from the run's references, or, for a run of
 * the editor's draft (no references), from the playground session it belongs to.
 */
export function OpenInChat({ run }: { run: TraceRun }) {
  const trpc = useTRPC();
  const needsSession = !run.agentId && Boolean(run.sessionId);
  const session = useQuery({
    ...trpc.chatSessions.get.queryOptions({ id: run.sessionId ?? "" }),
    enabled: needsSession,
    retry: false,
  });
  const agentId = run.agentId ?? session.data?.agentId;
  const variantId = run.variantId ?? session.data?.variantId ?? undefined;
  if (!agentId || !variantId) return null;
  return (
    <Link
      href={chatPath(agentId, variantId, { trace: run.traceId, revision: run.revisionId })}
      className={buttonClass({ size: "sm" })}
    >
      Open in chat
    </Link>
  );
}
