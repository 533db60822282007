"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { tracePath } from "@/components/traces";
import { useTRPC } from "@/components/trpc";
import { Badge, Card, QueryError, Skeleton } from "@/components/ui";
import { AnalyticsTabs } from "./analytics-tabs";
import { formatMs, formatScores, formatUsd } from "./conversation-format";

/** One conversation: its turns in order, each with its cost, latency, error and scores, opening its trace. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const turns = useQuery(trpc.analytics.sessionTurns.queryOptions({ sessionId }));
  const total = turns.data?.reduce((s, t) => s + t.cost, 0) ?? 0;
  return (
    <section aria-label="Session" className="flex flex-col gap-4">
      <AnalyticsTabs />
      <div>
        <Link href="/analytics/sessions" className="text-xs text-accent hover:underline">
          ← Sessions
        </Link>
        <h2 className="text-xl font-semibold tracking-tight break-all">Session {sessionId}</h2>
        {turns.data && (
          <p className="text-sm text-muted" data-testid="session-summary">
            {turns.data.length} turns · {turns.data.filter((t) => t.error).length} errors · {formatUsd(total)}
          </p>
        )}
      </div>
      {turns.isPending ? (
        <Skeleton className="h-40" />
      ) : turns.isError ? (
        <QueryError title="Could not load this session" error={turns.error} />
      ) : (
        <Card>
          <ol className="flex flex-col divide-y divide-line" data-testid="session-turns-list">
            {turns.data.map((t, i) => (
              <li
                key={t.trace_id}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm"
                data-testid="turn-row"
              >
                <span className="w-8 text-muted tabular-nums">#{i + 1}</span>
                <Link href={tracePath(t.trace_id)} className="min-w-0 flex-1 truncate text-accent hover:underline">
                  {t.name}
                </Link>
                {t.error && <Badge tone="danger">error</Badge>}
                <span className="tabular-nums">{formatMs(t.duration_ms)}</span>
                <span className="tabular-nums" data-testid="turn-cost">
                  {formatUsd(t.cost)}
                </span>
                <span className="tabular-nums">{t.tokens} tokens</span>
                <span className="tabular-nums">{formatScores(t.scores)}</span>
                <span className="text-xs text-muted">{new Date(t.started_at).toLocaleString()}</span>
              </li>
            ))}
          </ol>
        </Card>
      )}
    </section>
  );
}
