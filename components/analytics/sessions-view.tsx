"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Card, EmptyState, QueryView, Skeleton } from "@/components/ui";
import { AnalyticsTabs } from "./analytics-tabs";
import { formatMs, formatScores, formatUsd, LIST_RANGES, listWindow, type ListRange } from "./conversation-format";

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
          <Card>
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="sessions-table">
                <thead>
                  <tr className="text-left text-xs text-muted">
                    {[
                      "Session",
                      "User",
                      "Turns",
                      "Errors",
                      "Cost",
                      "Tokens",
                      "Mean latency",
                      "Score",
                      "Last active",
                    ].map((h) => (
                      <th key={h} className="px-2 py-1 font-medium whitespace-nowrap">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
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
                      <td className="px-2 py-1 tabular-nums">{s.errors}</td>
                      <td className="px-2 py-1 tabular-nums" data-testid="session-cost">
                        {formatUsd(s.cost)}
                      </td>
                      <td className="px-2 py-1 tabular-nums">{s.tokens}</td>
                      <td className="px-2 py-1 tabular-nums">{formatMs(s.latency_ms.mean)}</td>
                      <td className="px-2 py-1 tabular-nums">{formatScores(s.scores)}</td>
                      <td className="px-2 py-1 whitespace-nowrap">{new Date(s.last_at).toLocaleString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        )}
      </QueryView>
    </section>
  );
}

export function RangeSelect({ value, onChange }: { value: ListRange; onChange: (range: ListRange) => void }) {
  return (
    <SelectInput aria-label="Range" value={value} onChange={(e) => onChange(e.target.value as ListRange)}>
      {Object.keys(LIST_RANGES).map((k) => (
        <option key={k} value={k}>
          Last {k === "24h" ? "24 hours" : k === "7d" ? "7 days" : "30 days"}
        </option>
      ))}
    </SelectInput>
  );
}
