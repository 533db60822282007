"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCost } from "@/components/chat/turn-usage";
import { costBreakdown, type CostBreakdown } from "./cost-breakdown";
import { useTRPC } from "@/components/trpc";
import { Badge, cn, CopyButton, Notice, Skeleton } from "@/components/ui";
import { runOfTrace, type TraceRun } from "@/shared/trace-messages";
import { formatDuration } from "@/components/ui/format-duration";
import { flattenTrace, type SpanRow } from "./flatten-trace";
import { AddToTestsetButton } from "@/components/testsets";
import { OpenInChat } from "./open-in-chat";
import { rowsOfRuns } from "./rows-of-runs";
import { MessagesAsChat, SpanMessages } from "./span-messages";
import { tracePath, tracesPath } from "./trace-paths";
import { NO_PRICE } from "@/shared/no-price";

/** Ingest is asynchronous: a trace linked from a chat may take a moment to be stored. */
const WAIT_FOR_INGEST_MS = 1000;

/** `/traces/[traceId]?span=`: the span tree beside a waterfall, roll-ups, the chosen span's attributes. */
export function TraceView({ traceId, spanId }: { traceId: string; spanId?: string }) {
  const trpc = useTRPC();
  const trace = useQuery({
    ...trpc.traces.get.queryOptions({ traceId }),
    refetchInterval: (query) => (query.state.data?.count === 0 ? WAIT_FOR_INGEST_MS : false),
  });
  if (trace.isPending) return <Skeleton className="h-64" />;
  if (trace.isError) {
    return (
      <Notice tone="danger" title="Could not show this trace">
        {trace.error.message}
      </Notice>
    );
  }
  if (trace.data.count === 0 || !trace.data.trace) {
    return (
      <Notice title="No trace with this id yet">
        A run&apos;s trace is stored a few seconds after it ends; this page checks again every second.{" "}
        <Link href={tracesPath()} className="underline">
          All traces
        </Link>
      </Notice>
    );
  }
  const summary = flattenTrace(trace.data.trace as Parameters<typeof flattenTrace>[0]);
  const run = runOfTrace(trace.data.trace as Parameters<typeof runOfTrace>[0]);
  const selected = summary.rows.find((r) => r.spanId === spanId) ?? summary.rows[0];
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="trace-summary">
        <Fact label="Duration" value={formatDuration(summary.durationMs)} />
        <Fact label="Spans" value={String(summary.rows.length)} />
        <Fact
          label="Tokens"
          value={`${summary.tokens.input.toLocaleString("en-US")} in · ${summary.tokens.output.toLocaleString("en-US")} out`}
        />
        <Fact label="Cost" value={summary.cost === undefined ? NO_PRICE : formatCost(summary.cost)} />
        <Fact label="Errors" value={String(summary.errors)} tone={summary.errors > 0 ? "danger" : undefined} />
      </dl>
      <CostKinds
        breakdown={costBreakdown(
          summary.rows.filter((r) => r.depth === 0).map((r) => r.attributes),
          summary.rows.map((r) => r.attributes),
        )}
        testId="trace-cost-kinds"
      />
      <div className="flex items-center gap-2 text-xs text-muted">
        Trace <code className="font-mono break-all">{traceId}</code>
        <CopyButton value={traceId} label="Copy trace id" size="sm" variant="ghost" />
        {run && (
          <span className="ml-auto flex flex-wrap items-center gap-2">
            {run.messages.length > 0 && <AddToTestsetButton rows={() => rowsOfRuns([run])} />}
            <OpenInChat run={run} />
          </span>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ol className="overflow-hidden rounded-xl border border-line bg-surface" aria-label="Spans">
          {summary.rows.map((row) => (
            <SpanLine
              key={row.spanId}
              traceId={traceId}
              row={row}
              total={summary.durationMs}
              selected={row === selected}
            />
          ))}
        </ol>
        {selected && <SpanDetails row={selected} run={selected.depth === 0 ? run : null} />}
      </div>
    </div>
  );
}

function Fact({ label, value, tone }: { label: string; value: string; tone?: "danger" }) {
  return (
    <div className="rounded-lg border border-line bg-surface px-3 py-2">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={cn("text-sm font-semibold tabular-nums", tone === "danger" && "text-danger")}>{value}</dd>
    </div>
  );
}

/** One row of the tree, indented by depth, with its bar on the trace's time axis. */
function SpanLine({
  traceId,
  row,
  total,
  selected,
}: {
  traceId: string;
  row: SpanRow;
  total: number;
  selected: boolean;
}) {
  const left = total > 0 ? (row.offsetMs / total) * 100 : 0;
  const width = total > 0 ? Math.max((row.durationMs / total) * 100, 0.5) : 100;
  return (
    <li data-testid="span-row" data-error={row.error || undefined}>
      <Link
        href={tracePath(traceId, row.spanId)}
        scroll={false}
        aria-current={selected ? "true" : undefined}
        className={cn(
          "grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] items-center gap-3 border-b border-line px-3 py-2 text-sm last:border-b-0 hover:bg-surface-muted",
          selected && "bg-accent-soft",
          row.error && "text-danger",
        )}
      >
        <span className="flex min-w-0 items-center gap-1.5" style={{ paddingLeft: `${row.depth * 14}px` }}>
          <span className="truncate font-mono text-xs">{row.name}</span>
          {row.error && <Badge tone="danger">error</Badge>}
        </span>
        <span
          className="relative h-4"
          aria-label={`${formatDuration(row.durationMs)}, starting at ${formatDuration(row.offsetMs)}`}
        >
          <span
            className={cn("absolute top-1 h-2 rounded-sm", row.error ? "bg-danger" : "bg-accent")}
            style={{ left: `${left}%`, width: `${width}%` }}
          />
        </span>
      </Link>
    </li>
  );
}

/** The chosen span; an agent run's root shows the run's whole conversation, a model call its own messages. */
function SpanDetails({ row, run }: { row: SpanRow; run: TraceRun | null }) {
  return (
    <section
      aria-label="Span details"
      className="min-w-0 rounded-xl border border-line bg-surface p-4 text-sm"
      data-testid="span-details"
    >
      <h2 className="font-mono text-sm font-semibold break-all">{row.name}</h2>
      <p className="mt-1 text-xs text-muted">
        {row.type} · {formatDuration(row.durationMs)} · starts at +{formatDuration(row.offsetMs)}
      </p>
      {row.error && (
        <Notice tone="danger" title="This span failed" className="mt-3">
          {row.statusMessage ?? "No message was recorded."}
        </Notice>
      )}
      {run && run.messages.length > 0 ? (
        <>
          <h3 className="mt-4 text-xs font-medium tracking-wide text-muted uppercase">Conversation</h3>
          <div className="mt-1">
            <MessagesAsChat messages={run.messages} label="Conversation of this run" />
          </div>
        </>
      ) : (
        <SpanMessages attributes={row.attributes} />
      )}
      <h3 className="mt-4 text-xs font-medium tracking-wide text-muted uppercase">Cost</h3>
      <CostKinds breakdown={costBreakdown([row.attributes])} testId="span-cost-kinds" empty="No model call here" />
      <h3 className="mt-4 text-xs font-medium tracking-wide text-muted uppercase">Attributes</h3>
      <pre className="mt-1 max-h-[28rem] overflow-auto rounded-md bg-surface-muted p-2 font-mono text-xs whitespace-pre-wrap break-words">
        {JSON.stringify(row.attributes, null, 2)}
      </pre>
    </section>
  );
}

/** Cost per usage kind (input, cached input, cache writes, output, reasoning), or why there is none. */
function CostKinds({ breakdown, testId, empty }: { breakdown?: CostBreakdown; testId: string; empty?: string }) {
  if (!breakdown) return empty ? <p className="mt-1 text-xs text-muted">{empty}</p> : null;
  if (!breakdown.priced)
    return (
      <p className="mt-1 text-xs text-muted" data-testid={testId}>
        {NO_PRICE}
        {breakdown.reason ? `: ${breakdown.reason}` : ""}
      </p>
    );
  return (
    <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs" data-testid={testId} aria-label="Cost by usage kind">
      {breakdown.kinds.map((k) => (
        <li key={k.kind}>
          <span className="text-muted">{k.label}</span> <span className="tabular-nums">{formatCost(k.usd)}</span>
        </li>
      ))}
    </ul>
  );
}
