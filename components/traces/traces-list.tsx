"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { formatCost } from "@/components/chat/turn-usage";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, EmptyState, Input, Notice, Skeleton, TimeAgo } from "@/components/ui";
import { flattenTrace, formatDuration } from "./flatten-trace";
import { tracePath, tracesPath, type TraceFilters } from "./trace-paths";

/** `/traces`: newest first, filtered by time, status, agent, cost and text; the filters live in the URL. */
export function TracesList({ filters }: { filters: TraceFilters }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [text, setText] = useState(filters.text ?? "");
  const [minCost, setMinCost] = useState(filters.minCost === undefined ? "" : String(filters.minCost));
  const traces = useQuery(trpc.traces.list.queryOptions({ ...filters, limit: 50 }));
  const agents = useQuery(trpc.agents.list.queryOptions({ limit: 100 }));
  const apply = (next: TraceFilters) => router.push(tracesPath(next));

  function submit(event: FormEvent) {
    event.preventDefault();
    const cost = minCost.trim() === "" ? undefined : Number(minCost);
    apply({ ...filters, text: text.trim() || undefined, minCost: cost !== undefined && Number.isFinite(cost) && cost >= 0 ? cost : undefined });
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} role="search" aria-label="Filter traces" className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1 sm:max-w-xs">
          <label htmlFor="trace-text" className="text-xs font-medium text-muted">
            Text
          </label>
          <Input id="trace-text" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Search inputs, outputs, names" />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="trace-since" className="text-xs font-medium text-muted">
            Time
          </label>
          <SelectInput id="trace-since" value={filters.since ?? ""} onChange={(e) => apply({ ...filters, since: (e.target.value || undefined) as TraceFilters["since"] })}>
            <option value="">Any time</option>
            <option value="1h">Last hour</option>
            <option value="24h">Last 24 hours</option>
            <option value="7d">Last 7 days</option>
            <option value="30d">Last 30 days</option>
          </SelectInput>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="trace-status" className="text-xs font-medium text-muted">
            Status
          </label>
          <SelectInput id="trace-status" value={filters.status ?? ""} onChange={(e) => apply({ ...filters, status: (e.target.value || undefined) as TraceFilters["status"] })}>
            <option value="">Any status</option>
            <option value="error">Errors</option>
            <option value="ok">Without errors</option>
          </SelectInput>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="trace-agent" className="text-xs font-medium text-muted">
            Agent
          </label>
          <SelectInput id="trace-agent" className="max-w-48" value={filters.agent ?? ""} onChange={(e) => apply({ ...filters, agent: e.target.value || undefined })}>
            <option value="">Any agent</option>
            {/* A filter from a link may name an agent that is not in the first page of the list. */}
            {filters.agent && !agents.data?.items.some((item) => item.agent.slug === filters.agent) && <option value={filters.agent}>{filters.agent}</option>}
            {agents.data?.items.map((item) => (
              <option key={item.agent.id} value={item.agent.slug}>
                {item.agent.name ?? item.agent.slug}
              </option>
            ))}
          </SelectInput>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="trace-min-cost" className="text-xs font-medium text-muted">
            Cost at least (USD)
          </label>
          <Input id="trace-min-cost" type="number" inputMode="decimal" min={0} step="any" className="w-32" value={minCost} onChange={(e) => setMinCost(e.target.value)} placeholder="0.01" />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {traces.isPending ? (
        <div className="space-y-2">
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
        </div>
      ) : traces.isError ? (
        <Notice tone="danger" title="Could not load traces">
          {traces.error.message}
        </Notice>
      ) : !traces.data.traces.length ? (
        <EmptyState title="No traces match" description="Chat with an agent, or send spans to /api/otlp/v1/traces; runs appear here within seconds." />
      ) : (
        <ul className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface" aria-label="Traces">
          {traces.data.traces.map((trace) => {
            const summary = flattenTrace(trace as Parameters<typeof flattenTrace>[0]);
            const root = summary.rows[0];
            return (
              <li key={trace.trace_id} data-testid="trace-row">
                <Link href={tracePath(trace.trace_id)} className="flex flex-col gap-1 px-4 py-3 hover:bg-surface-muted sm:flex-row sm:items-center sm:justify-between">
                  <span className="flex min-w-0 items-center gap-2">
                    <span className="truncate font-medium">{root?.name ?? "trace"}</span>
                    {summary.errors > 0 ? (
                      <Badge tone="danger" dot>
                        Error
                      </Badge>
                    ) : (
                      <Badge tone="success" dot>
                        OK
                      </Badge>
                    )}
                  </span>
                  <span className="flex flex-wrap gap-x-4 text-xs text-muted">
                    <span>{summary.rows.length} spans</span>
                    <span>{formatDuration(summary.durationMs)}</span>
                    <span>{summary.tokens.total.toLocaleString("en-US")} tokens</span>
                    {summary.cost !== undefined && <span>{formatCost(summary.cost)}</span>}
                    {root && <TimeAgo iso={String(root.span.start_time)} />}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
