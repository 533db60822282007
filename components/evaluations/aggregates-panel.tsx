import type { ReactNode } from "react";
import { cn } from "@/components/ui";
import type { RunAggregates } from "./aggregates";
import { formatCost, formatDelta, formatDuration, formatPercent, formatScore } from "./format";
import { MiniBars } from "./mini-bars";
import { NO_PRICE } from "@/shared/no-price";

function Stat({
  label,
  value,
  delta,
  chart,
  hint,
}: {
  label: string;
  value: ReactNode;
  delta?: { text: string; good: boolean | undefined };
  chart?: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-lg border border-line bg-surface p-3" data-testid="aggregate">
      <span className="truncate text-xs text-muted" title={label}>
        {label}
      </span>
      <span className="flex flex-wrap items-baseline gap-2">
        <span className="text-lg font-semibold tabular-nums">{value}</span>
        {delta && (
          <span
            className={cn(
              "text-xs font-medium tabular-nums",
              delta.good === undefined ? "text-muted" : delta.good ? "text-success" : "text-danger",
            )}
          >
            {delta.text}
          </span>
        )}
      </span>
      {hint && <span className="text-xs text-muted">{hint}</span>}
      {chart}
    </div>
  );
}

const change = (now: number | undefined, before: number | undefined, higherIsBetter: boolean, digits = 2) => {
  if (now === undefined || before === undefined) return undefined;
  const d = now - before;
  return { text: formatDelta(d, digits), good: Math.abs(d) < 10 ** -digits / 2 ? undefined : d > 0 === higherIsBetter };
};

/**
 * The numbers at the top of a results page: each evaluator's mean score with its distribution,
 * latency (p50 / p95 with a distribution), tokens and cost; with `baseline`, each with its delta.
 */
export function AggregatesPanel({ aggregates, baseline }: { aggregates: RunAggregates; baseline?: RunAggregates }) {
  const a = aggregates;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5" aria-label="Aggregates">
      {a.evaluators.map((e) => {
        const before = baseline?.evaluators.find((b) => b.name === e.name);
        return (
          <Stat
            key={e.name}
            label={e.name}
            value={formatScore(e.mean)}
            delta={change(e.mean, before?.mean, true)}
            hint={`${e.passed} / ${e.scored} passed${e.failed ? ` · ${e.failed} failed to score` : ""}`}
            chart={
              <MiniBars counts={e.histogram} label={`Scores of ${e.name} from 0 to 1: ${e.histogram.join(", ")}`} />
            }
          />
        );
      })}
      <Stat
        label="Latency p50 / p95"
        value={`${formatDuration(a.latency.p50)} / ${formatDuration(a.latency.p95)}`}
        delta={
          baseline?.latency.p50 !== undefined && a.latency.p50 !== undefined
            ? {
                text: `${formatDelta((a.latency.p50 - baseline.latency.p50) / 1000, 1)} s`,
                good: a.latency.p50 <= baseline.latency.p50,
              }
            : undefined
        }
        chart={
          <MiniBars
            tone="muted"
            counts={a.latency.histogram}
            label={`Latency from 0 to ${formatDuration(a.latency.max)}: ${a.latency.histogram.join(", ")}`}
          />
        }
      />
      <Stat
        label="Cost"
        value={a.costUsd === undefined ? NO_PRICE : formatCost(a.costUsd)}
        hint={`${a.tokens.toLocaleString("en")} tokens · ${
          a.costUsd === undefined ? NO_PRICE : a.rows ? `${formatCost(a.costUsd / a.rows)} per row` : "— per row"
        }`}
        delta={
          baseline && a.costUsd !== undefined && baseline.costUsd !== undefined
            ? {
                text: `${a.costUsd >= baseline.costUsd ? "+" : "−"}${formatCost(Math.abs(a.costUsd - baseline.costUsd))}`,
                good: a.costUsd <= baseline.costUsd,
              }
            : undefined
        }
      />
      <Stat
        label="Rows done"
        value={`${a.done} / ${a.rows}`}
        hint={
          a.errors
            ? `${a.errors} output${a.errors === 1 ? "" : "s"} failed`
            : formatPercent(a.rows ? a.done / a.rows : undefined)
        }
      />
    </div>
  );
}
