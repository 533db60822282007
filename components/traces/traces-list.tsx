"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { formatCost } from "@/components/chat/turn-usage";
import { SelectInput } from "@/components/editor/select-input";
import { AddToTestsetButton } from "@/components/testsets";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, EmptyState, Input, QueryView, Skeleton, TimeAgo } from "@/components/ui";
import { runOfTrace } from "@/shared/trace-messages";
import { formatDuration } from "@/components/ui/format-duration";
import { flattenTrace } from "./flatten-trace";
import { rowsOfRuns } from "./rows-of-runs";
import { tracePath, tracesPath, type TraceFilters } from "./trace-paths";
import { traceRowSummary, type TraceOutcome } from "./trace-row-summary";

const OUTCOMES: Record<TraceOutcome, { label: string; tone: "success" | "warning" | "danger" }> = {
  ok: { label: "OK", tone: "success" },
  paused: { label: "Waiting for a person", tone: "warning" },
  error: { label: "Error", tone: "danger" },
};

/** `/traces`: newest first, filtered by time, status, agent, cost and text; the filters live in the URL. */
export function TracesList({ filters }: { filters: TraceFilters }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [text, setText] = useState(filters.text ?? "");
  const [minCost, setMinCost] = useState(filters.minCost === undefined ? "" : String(filters.minCost));
  const traces = useQuery(trpc.traces.list.queryOptions({ ...filters, limit: 50 }));
  const agents = useQuery(trpc.agents.list.queryOptions({ limit: 100 }));
  // A chart's series (an analytics drill-down) narrows the list to a model or a revision, named here.
  const revision = useQuery({
    ...trpc.agents.revision.queryOptions({ id: filters.revision ?? "" }),
    enabled: Boolean(filters.revision),
    retry: false,
  });
  const apply = (next: TraceFilters) => router.push(tracesPath(next));
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (id: string) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));
  // Each selected trace is read whole (the list's copy is for display), then made a testcase.
  const selectedRows = async () =>
    rowsOfRuns(
      await Promise.all(
        selected.map(async (traceId) => {
          const found = await queryClient.fetchQuery(trpc.traces.get.queryOptions({ traceId }));
          return found.trace ? runOfTrace(found.trace as Parameters<typeof runOfTrace>[0]) : null;
        }),
      ),
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    const cost = minCost.trim() === "" ? undefined : Number(minCost);
    apply({
      ...filters,
      text: text.trim() || undefined,
      minCost: cost !== undefined && Number.isFinite(cost) && cost >= 0 ? cost : undefined,
    });
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} role="search" aria-label="Filter traces" className="flex flex-wrap items-end gap-3">
        {/* A row of its own on a phone: beside the other filters it would be squeezed to nothing. */}
        <div className="flex min-w-0 flex-1 basis-full flex-col gap-1 sm:max-w-xs sm:basis-56">
          <label htmlFor="trace-text" className="text-xs font-medium text-muted">
            Text
          </label>
          <Input
            id="trace-text"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Search inputs, outputs, names"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="trace-since" className="text-xs font-medium text-muted">
            Time
          </label>
          <SelectInput
            id="trace-since"
            value={filters.from ? "range" : (filters.since ?? "")}
            onChange={(e) =>
              e.target.value !== "range" &&
              apply({
                ...filters,
                from: undefined,
                to: undefined,
                since: (e.target.value || undefined) as TraceFilters["since"],
              })
            }
          >
            {filters.from && <option value="range">{rangeLabel(filters.from, filters.to)}</option>}
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
          <SelectInput
            id="trace-status"
            value={filters.status ?? ""}
            onChange={(e) => apply({ ...filters, status: (e.target.value || undefined) as TraceFilters["status"] })}
          >
            <option value="">Any status</option>
            <option value="error">Errors</option>
            <option value="ok">Without errors</option>
          </SelectInput>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="trace-agent" className="text-xs font-medium text-muted">
            Agent
          </label>
          <SelectInput
            id="trace-agent"
            className="max-w-48"
            value={filters.agent ?? ""}
            onChange={(e) => apply({ ...filters, agent: e.target.value || undefined })}
          >
            <option value="">Any agent</option>
            {/* A filter from a link may name an agent that is not in the first page of the list. */}
            {filters.agent && !agents.data?.items.some((item) => item.agent.slug === filters.agent) && (
              <option value={filters.agent}>{filters.agent}</option>
            )}
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
          <Input
            id="trace-min-cost"
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            className="w-32"
            value={minCost}
            onChange={(e) => setMinCost(e.target.value)}
            placeholder="0.01"
          />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {(filters.model || filters.revision) && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="series-filter">
          <span>
            Only traces of{" "}
            {[
              filters.model && `the model ${filters.model}`,
              filters.revision && `revision ${revision.data?.version ? `v${revision.data.version}` : filters.revision}`,
            ]
              .filter(Boolean)
              .join(" and ")}
          </span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => apply({ ...filters, model: undefined, revision: undefined })}
          >
            Show all
          </Button>
        </p>
      )}
      <QueryView
        query={traces}
        pending={
          <div className="space-y-2">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        }
        errorTitle="Could not load traces"
        isEmpty={(data) => !data.traces.length}
        empty={
          <EmptyState
            title="No traces match"
            description="Chat with an agent, or send spans to /api/otlp/v1/traces; runs appear here within seconds."
          />
        }
      >
        {(data) => (
          <>
            {selected.length > 0 && (
              <div
                className="flex flex-wrap items-center gap-2 rounded-lg border border-line bg-surface-muted/60 px-3 py-2 text-sm"
                data-testid="trace-selection"
              >
                <span aria-live="polite">
                  {selected.length} {selected.length === 1 ? "trace" : "traces"} selected
                </span>
                <AddToTestsetButton rows={selectedRows} variant="primary" />
                <Button size="sm" variant="ghost" onClick={() => setSelected([])}>
                  Clear
                </Button>
              </div>
            )}
            <ul
              className="divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
              aria-label="Traces"
            >
              {data.traces.map((trace) => {
                const summary = flattenTrace(trace as Parameters<typeof flattenTrace>[0]);
                const row = traceRowSummary(trace as Parameters<typeof traceRowSummary>[0]);
                const root = summary.rows[0];
                const outcome = OUTCOMES[row.outcome];
                return (
                  <li
                    key={trace.trace_id}
                    data-testid="trace-row"
                    data-outcome={row.outcome}
                    className="flex items-start hover:bg-surface-muted"
                  >
                    <input
                      type="checkbox"
                      checked={selected.includes(trace.trace_id)}
                      onChange={() => toggle(trace.trace_id)}
                      aria-label={`Select trace ${root?.name ?? trace.trace_id}`}
                      className="mt-4 ml-4 size-4 shrink-0 cursor-pointer accent-[var(--accent)]"
                    />
                    <Link href={tracePath(trace.trace_id)} className="flex min-w-0 flex-1 flex-col gap-1.5 px-4 py-3">
                      <span className="flex min-w-0 flex-wrap items-center gap-2">
                        <span className="truncate font-medium">{root?.name ?? "trace"}</span>
                        <Badge tone={outcome.tone} dot>
                          {outcome.label}
                        </Badge>
                        {row.failedSteps > 0 && (
                          <Badge tone="warning">
                            {row.failedSteps} step{row.failedSteps === 1 ? "" : "s"} failed
                          </Badge>
                        )}
                        <span className="ml-auto text-xs text-muted">
                          {root && <TimeAgo iso={String(root.span.start_time)} />}
                        </span>
                      </span>
                      {(row.input || row.output) && (
                        <span className="grid gap-0.5 text-sm sm:grid-cols-2 sm:gap-4" data-testid="trace-preview">
                          <span className="truncate">
                            <span className="text-xs text-muted">In </span>
                            {row.input ?? "—"}
                          </span>
                          <span className="truncate">
                            <span className="text-xs text-muted">Out </span>
                            {row.output ?? "—"}
                          </span>
                        </span>
                      )}
                      <span className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted">
                        {row.model && <span className="font-mono">{row.model}</span>}
                        {row.sessionId && (
                          <span className="max-w-48 truncate font-mono" title={`Session ${row.sessionId}`}>
                            session {row.sessionId}
                          </span>
                        )}
                        <span>{formatDuration(summary.durationMs)}</span>
                        <span>{summary.tokens.total.toLocaleString("en-US")} tokens</span>
                        {summary.cost !== undefined && <span>{formatCost(summary.cost)}</span>}
                        <span>{summary.rows.length} spans</span>
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </QueryView>
    </div>
  );
}

/** A chart bucket's range, in UTC (the same text on the server and in the browser). */
function rangeLabel(from: string, to: string | undefined): string {
  const at = (iso: string) => iso.slice(0, 16).replace("T", " ");
  return to ? `${at(from)} to ${at(to)} UTC` : `Since ${at(from)} UTC`;
}
