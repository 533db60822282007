"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { UIMessage } from "ai";
import { useTRPC } from "@/components/trpc";
import { runOfTrace } from "@/shared/trace-messages";
import type { OpenSession } from "./use-chat-sessions";

/**
 * The conversation the chat page opens with: a stored session (`?session=`), or the run a trace
 * records (`?trace=`): its stored session when the playground kept one, else the messages the
 * trace holds, continued under the run's own session id (`unsaved`: the page stores it). With neither, the variant's most recent
 * session, so coming back to the chat page continues where it was left.
 */
export function useInitialSession(
  agentId: string,
  variantId: string,
  sessionId?: string,
  traceId?: string,
): { pending: boolean; initial: OpenSession | null; problem?: string; unsaved?: boolean } {
  const trpc = useTRPC();
  const trace = useQuery({ ...trpc.traces.get.queryOptions({ traceId: traceId ?? "" }), enabled: Boolean(traceId) });
  const run = trace.data?.trace ? runOfTrace(trace.data.trace as Parameters<typeof runOfTrace>[0]) : null;
  const fresh = !sessionId && !traceId;
  const recent = useQuery({ ...trpc.chatSessions.list.queryOptions({ agentId }), enabled: fresh });
  // Taken once, when the page opens: the sessions this page's own turns create later do not reopen it.
  const [latest, setLatest] = useState<string | null>();
  if (fresh && latest === undefined && (recent.data || recent.isError)) {
    setLatest(recent.data?.find((session) => session.variantId === variantId)?.id ?? null);
  }
  const wanted = sessionId ?? run?.sessionId ?? (fresh ? (latest ?? undefined) : undefined);
  const stored = useQuery({ ...trpc.chatSessions.get.queryOptions({ id: wanted ?? "" }), enabled: Boolean(wanted) });

  if (fresh) {
    if (latest === undefined || (latest && stored.isPending)) return { pending: true, initial: null };
    return stored.data
      ? { pending: false, initial: { id: stored.data.id, messages: stored.data.messages as UIMessage[] } }
      : { pending: false, initial: null };
  }
  if ((traceId && trace.isPending) || (wanted && stored.isPending)) return { pending: true, initial: null };
  if (stored.data)
    return { pending: false, initial: { id: stored.data.id, messages: stored.data.messages as UIMessage[] } };
  if (sessionId)
    return {
      pending: false,
      initial: null,
      problem: "That chat session was not found in this project; this is a new chat.",
    };
  if (!run)
    return {
      pending: false,
      initial: null,
      problem: "That trace holds no agent run (or is not stored yet); this is a new chat.",
    };
  // Not stored yet (a run of an automation or the API): the chat page saves it as it opens.
  return {
    pending: false,
    initial: { id: run.sessionId ?? `trace-${run.traceId}`, messages: run.messages },
    unsaved: true,
  };
}
