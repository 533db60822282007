"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { tracePath } from "@/components/traces/trace-paths";
import { useTRPC } from "@/components/trpc";
import { Badge, Card, cn, EmptyState, Notice, Skeleton } from "@/components/ui";
import { evaluationPath } from "./evaluation-paths";
import { formatCost, formatDelta, formatDuration, formatScore } from "./format";
import { outputText } from "./output-text";
import { InputsView, OutputView } from "./output-view";
import { caseTrend, regressionOrder } from "./regression-order";
import { StatusBadge } from "./status-badge";
import type { ComparedTestcase, Comparison } from "./types";
import { WordDiffView } from "./word-diff-view";

const DURATION = "attributes.svc.metrics.duration.cumulative";
const COSTS = "attributes.svc.metrics.costs.cumulative.total";

const deltaTone = (d: number | undefined) =>
  d === undefined || Math.abs(d) < 0.005 ? "text-muted" : d > 0 ? "text-success" : "text-danger";

/** A statistic (`mean`, `sum`) of a run's invocation step (keys `application-...`) from the engine's metrics. */
function statOf(metrics: Record<string, unknown>, path: string, key: "mean" | "sum"): number | undefined {
  for (const [step, values] of Object.entries(metrics)) {
    if (!step.startsWith("application-")) continue;
    const stat = (values as Record<string, Record<string, unknown> | undefined> | null)?.[path];
    if (typeof stat?.[key] === "number") return stat[key] as number;
  }
  return undefined;
}

function RunHeader({ comparison }: { comparison: Comparison }) {
  return (
    <div className="grid gap-3" style={{ gridTemplateColumns: `repeat(auto-fit, minmax(14rem, 1fr))` }}>
      {comparison.runs.map((run, i) => (
        <Card key={run.id}>
          <div className="flex flex-col gap-2 p-4" data-testid="compared-run">
            <div className="flex flex-wrap items-center gap-2">
              <Link
                href={evaluationPath(run.id)}
                className="min-w-0 font-medium break-all underline-offset-2 hover:underline"
              >
                {run.name ?? run.id.slice(0, 8)}
              </Link>
              {i === 0 ? <Badge>Baseline</Badge> : null}
              <StatusBadge status={run.status} />
            </div>
            {run.evaluated && run.evaluated !== run.name && (
              <p className="text-xs text-muted" data-testid="evaluated">
                Evaluated {run.evaluated}
              </p>
            )}
            <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
              {comparison.evaluators.map((e) => (
                <div key={e} className="contents">
                  <dt className="truncate text-muted" title={e}>
                    {e}
                  </dt>
                  <dd className="tabular-nums">
                    <span className="font-semibold">{formatScore(run.scores[e])}</span>{" "}
                    {i > 0 && <span className={deltaTone(run.deltas[e])}>{formatDelta(run.deltas[e])}</span>}
                  </dd>
                </div>
              ))}
              <dt className="text-muted">Latency (mean)</dt>
              <dd className="tabular-nums">{formatDuration(statOf(run.metrics, DURATION, "mean"))}</dd>
              <dt className="text-muted">Cost</dt>
              <dd className="tabular-nums">{formatCost(statOf(run.metrics, COSTS, "sum"))}</dd>
            </dl>
          </div>
        </Card>
      ))}
    </div>
  );
}

function CaseRow({ testcase, evaluators, index }: { testcase: ComparedTestcase; evaluators: string[]; index: number }) {
  const trend = caseTrend(testcase);
  const baselineText = outputText(testcase.runs[0]?.outputs);
  return (
    <li className="flex min-w-0 flex-col gap-3 px-4 py-4" data-testid="compare-row" data-trend={trend}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-muted tabular-nums">#{index + 1}</span>
        {trend === "regressed" && (
          <Badge tone="danger" dot>
            Regressed
          </Badge>
        )}
        {trend === "improved" && (
          <Badge tone="success" dot>
            Improved
          </Badge>
        )}
      </div>
      <InputsView inputs={testcase.inputs} />
      <div
        className="grid min-w-0 gap-3"
        style={{ gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, 16rem), 1fr))` }}
      >
        {testcase.runs.map((run, i) => (
          <div key={run.run_id} className="flex min-w-0 flex-col gap-2 rounded-lg border border-line p-3">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
              {evaluators.map((e) => (
                <span key={e} className="tabular-nums" data-testid="compare-score">
                  <span className="text-muted">{e}</span>{" "}
                  <span className="font-semibold">{formatScore(run.scores[e])}</span>
                  {i > 0 && <span className={cn("ml-1", deltaTone(run.deltas[e]))}>{formatDelta(run.deltas[e])}</span>}
                </span>
              ))}
              {run.status && run.status !== "success" && <StatusBadge status={run.status} />}
              {run.trace_id && (
                <Link href={tracePath(run.trace_id)} className="ml-auto text-accent underline-offset-2 hover:underline">
                  Trace
                </Link>
              )}
            </div>
            {i === 0 ? (
              <OutputView output={run.outputs} label={`Baseline output of testcase ${index + 1}`} />
            ) : (
              <WordDiffView baseline={baselineText} text={outputText(run.outputs)} />
            )}
          </div>
        ))}
      </div>
    </li>
  );
}

/** Runs side by side: per-run scores with deltas, then per testcase the outputs with a word diff, regressions first. */
export function CompareView({ comparison }: { comparison: Comparison }) {
  const [onlyChanged, setOnlyChanged] = useState(false);
  const ordered = useMemo(() => regressionOrder(comparison.testcases), [comparison.testcases]);
  const shown = onlyChanged ? ordered.filter((t) => caseTrend(t) !== "unchanged") : ordered;
  const regressed = ordered.filter((t) => caseTrend(t) === "regressed").length;
  const position = new Map(comparison.testcases.map((t, i) => [t, i]));
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <RunHeader comparison={comparison} />
      <Card
        title={`${comparison.testcases.length} testcases · ${regressed} regressed`}
        description="Against the baseline (the first run): regressed rows first, the largest drop first."
        actions={
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={onlyChanged}
              onChange={(e) => setOnlyChanged(e.target.checked)}
            />
            Only changed rows
          </label>
        }
      >
        {shown.length === 0 ? (
          <EmptyState title="Nothing changed" description="Every testcase scored the same in every run." />
        ) : (
          <ol className="divide-y divide-line" aria-label="Testcases compared">
            {shown.map((t) => (
              <CaseRow
                key={t.testcase_id ?? position.get(t)}
                testcase={t}
                evaluators={comparison.evaluators}
                index={position.get(t) ?? 0}
              />
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}

/** /evaluations/compare: given runs, or the newest evaluations of given revisions on a testset they share. */
export function CompareLoader({ runIds, revisionIds }: { runIds: string[]; revisionIds: string[] }) {
  const trpc = useTRPC();
  const ofRevisions = useQuery({
    ...trpc.evaluations.ofRevisions.queryOptions({ revisionIds }),
    enabled: runIds.length < 2 && revisionIds.length >= 2,
  });
  const ids = runIds.length >= 2 ? runIds : (ofRevisions.data?.map((e) => e.id) ?? []);
  const comparison = useQuery({
    ...trpc.evaluations.compare.queryOptions({ ids }),
    enabled: ids.length >= 2,
    // Runs still running fill in as their cells land.
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === "running") ? 1_000 : false),
  });
  if (runIds.length < 2 && revisionIds.length < 2)
    return (
      <Notice tone="info" title="Pick two runs">
        Open an evaluation and choose another run to compare it with, or compare two revisions from an agent&apos;s
        history.
      </Notice>
    );
  if (ofRevisions.isError || comparison.isError)
    return (
      <Notice tone="danger" title="Could not compare">
        {(ofRevisions.error ?? comparison.error)?.message}
      </Notice>
    );
  if (ofRevisions.data && ofRevisions.data.length < 2)
    return (
      <EmptyState
        title="These revisions have not been evaluated on the same testset"
        description="Run an evaluation of both revisions (from the agent page or the evaluations list), then compare again."
      />
    );
  if (!comparison.data)
    return (
      <div className="flex flex-col gap-4">
        <Skeleton className="h-28" />
        <Skeleton className="h-64" />
      </div>
    );
  return <CompareView comparison={comparison.data} />;
}
