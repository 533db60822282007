"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc";
import { EmptyState, QueryView, Skeleton } from "@/components/ui";
import { AnalyticsTabs } from "./analytics-tabs";
import { listWindow, type ListRange } from "./conversation-format";
import { ConversationTable, RangeSelect, TotalsCells } from "./conversation-table";

/**
 * Conversations: runs that share a session id, the most recently active first, with their turns,
 * errors, cost, tokens, latency and live evaluators' scores. `user` narrows it to one user (the
 * Users view links here). A row opens the session's turns.
 */
export function SessionsView({ user }: { user?: string }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<ListRange>("7d");
  const input = useMemo(() => ({ ...listWindow(range, new Date()), ...(user ? { user } : {}) }), [range, user]);
  const sessions = useQuery(trpc.analytics.sessions.queryOptions(input));
  return (
    <section aria-label="Sessions" className="flex flex-col gap-4">
      <AnalyticsTabs />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Sessions{user ? ` of ${user}` : ""}</h2>
          <p className="text-sm text-muted">
            Conversations: runs sharing a session id, with their turns and what they cost.
          </p>
        </div>
        <RangeSelect value={range} onChange={setRange} />
      </div>
      <QueryView
        query={sessions}
        pending={<Skeleton className="h-40" />}
        errorTitle="Could not load sessions"
        isEmpty={(data) => data.count === 0}
        empty={
          <EmptyState
            title="No sessions in this range"
            description="Chats in the playground and runs sent with a session id appear here."
          />
        }
      >
        {(data) => (
          <ConversationTable testId="sessions-table" leading={["Session", "User", "Turns"]}>
            {data.sessions.map((s) => (
              <tr key={s.session_id} className="border-t border-line" data-testid="session-row">
                <td className="max-w-48 truncate px-2 py-1">
                  <Link
                    href={`/analytics/sessions/${encodeURIComponent(s.session_id)}`}
                    className="font-mono text-xs text-accent hover:underline"
                  >
                    {s.session_id}
                  </Link>
                </td>
                <td className="px-2 py-1">{s.user_ids.join(", ") || "—"}</td>
                <td className="px-2 py-1 tabular-nums" data-testid="session-turns">
                  {s.runs}
                </td>
                <TotalsCells totals={s} testIdPrefix="session" />
              </tr>
            ))}
          </ConversationTable>
        )}
      </QueryView>
    </section>
  );
}
