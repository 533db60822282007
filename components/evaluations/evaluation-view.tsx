"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useCanEdit } from "@/components/shell/account-context";
import { FindWhatFailsButton } from "@/components/improve";
import { useTRPC } from "@/components/trpc";
import { Button, buttonClass, Card, EmptyState, Input, Notice, QueryError, Skeleton, TimeAgo } from "@/components/ui";
import { aggregateRun } from "./aggregates";
import { AggregatesPanel } from "./aggregates-panel";
import { comparePath } from "./evaluation-paths";
import { ProgressBar } from "./progress-bar";
import { ResultsRow } from "./results-row";
import { rowErrored, visibleRows, type RowFilter, type RowSort } from "./row-filters";
import { StatusBadge } from "./status-badge";

const POLL_MS = 1_000;

/** The runs a result can be set against: other evaluations of the same testset revision. */
function useBaselineChoices(testsetRevisionId: unknown, currentId: string) {
  const trpc = useTRPC();
  const list = useQuery(trpc.evaluations.list.queryOptions({ limit: 100 }));
  return (list.data?.items ?? []).filter(
    (e) => e.id !== currentId && testsetRevisionId && e.meta.testset_revision_id === testsetRevisionId,
  );
}

/**
 * /evaluations/[id]: a run while it runs (progress, per-row status, stop) and after (aggregates
 * with charts, one row per testcase, filters, sort, re-run of failed rows, deltas against
 * another run of the same testset).
 */
export function EvaluationView({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const evaluation = useQuery({
    ...trpc.evaluations.get.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data?.data.status === "running" ? POLL_MS : false),
  });
  const running = evaluation.data?.data.status === "running";
  const table = useQuery({
    ...trpc.evaluations.table.queryOptions({ id }),
    refetchInterval: running ? POLL_MS : false,
  });
  const [filter, setFilter] = useState<RowFilter>("all");
  const [evaluator, setEvaluator] = useState("");
  const [maxScore, setMaxScore] = useState("");
  const [sort, setSort] = useState<RowSort>("testset");
  const [baselineId, setBaselineId] = useState("");
  const baselines = useBaselineChoices(evaluation.data?.meta.testset_revision_id, id);
  const baselineTable = useQuery({ ...trpc.evaluations.table.queryOptions({ id: baselineId }), enabled: !!baselineId });

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.evaluations.pathKey() });
  const stop = useMutation(trpc.evaluations.stop.mutationOptions({ onSuccess: refresh }));
  const start = useMutation(trpc.evaluations.start.mutationOptions({ onSuccess: refresh }));
  const rerun = useMutation(trpc.evaluations.rerunRows.mutationOptions({ onSuccess: refresh }));

  const names = useMemo(() => table.data?.evaluators.map((e) => e.name) ?? [], [table.data]);
  const aggregates = useMemo(
    () => (table.data ? aggregateRun(table.data.rows, names) : undefined),
    [table.data, names],
  );
  const baseline = useMemo(
    () => (baselineTable.data ? aggregateRun(baselineTable.data.rows, names) : undefined),
    [baselineTable.data, names],
  );

  if (evaluation.isPending || table.isPending)
    return (
      <div className="flex flex-col gap-4">
        <Skeleton className="h-20" />
        <Skeleton className="h-28" />
        <Skeleton className="h-64" />
      </div>
    );
  if (evaluation.isError || table.isError)
    return (
      <QueryError
        title="Could not load the evaluation"
        error={(evaluation.error ?? table.error)!}
        onRetry={() => void Promise.all([evaluation.refetch(), table.refetch()])}
        retrying={evaluation.isFetching || table.isFetching}
      />
    );
  const run = evaluation.data;
  const { rows, application } = table.data;
  const errored = rows.filter(rowErrored);
  const shown = visibleRows(rows, {
    filter,
    evaluator: evaluator || undefined,
    maxScore: maxScore === "" || !Number.isFinite(Number(maxScore)) ? undefined : Number(maxScore),
    sort,
  });
  const stopped = run.data.status === "cancelled";

  return (
    <div className="flex min-w-0 flex-col gap-5">
      <Card>
        <div className="flex flex-col gap-3 p-4">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="min-w-0 text-base font-semibold break-all" data-testid="evaluation-name">
              {run.name ?? application?.name ?? "Evaluation"}
            </h2>
            <StatusBadge status={run.data.status} />
            {application && (
              <span className="text-xs text-muted">
                {application.name}
                {application.version ? ` · v${application.version}` : " · unsaved draft"}
              </span>
            )}
            <span className="text-xs text-muted">
              {run.data.repeats > 1 ? `${run.data.repeats} repeats · ` : ""}
              started <TimeAgo iso={run.created_at} />
            </span>
            <div className="ml-auto flex flex-wrap gap-2">
              {running && (
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => stop.mutate({ id })}
                  loading={stop.isPending}
                  disabled={!canEdit}
                >
                  Stop
                </Button>
              )}
              {stopped && (
                <Button size="sm" onClick={() => start.mutate({ id })} loading={start.isPending} disabled={!canEdit}>
                  Resume
                </Button>
              )}
              {!running && errored.length > 0 && (
                <Button
                  size="sm"
                  onClick={() => rerun.mutate({ id, scenarioIds: errored.map((r) => r.scenario_id) })}
                  loading={rerun.isPending}
                  disabled={!canEdit}
                >
                  Re-run {errored.length} failed row{errored.length === 1 ? "" : "s"}
                </Button>
              )}
              {!running && (
                <FindWhatFailsButton
                  size="sm"
                  evidence={{ kind: "evaluation_run", run_id: id, below: 0.5 }}
                  describe="this run's failed and low-scored cells (below 0.5)"
                />
              )}
              {baselineId && (
                <Link href={comparePath([baselineId, id])} className={buttonClass({ size: "sm" })}>
                  Compare side by side
                </Link>
              )}
            </div>
          </div>
          <ProgressBar evaluation={run} />
          {(stop.error ?? start.error ?? rerun.error) && (
            <Notice tone="danger">{(stop.error ?? start.error ?? rerun.error)?.message}</Notice>
          )}
        </div>
      </Card>

      {aggregates && <AggregatesPanel aggregates={aggregates} baseline={baseline} />}

      <Card>
        <div className="flex flex-wrap items-end gap-3 border-b border-line p-4">
          <label className="flex flex-col gap-1 text-xs font-medium">
            Show
            <SelectInput value={filter} onChange={(e) => setFilter(e.target.value as RowFilter)} aria-label="Show rows">
              <option value="all">All rows ({rows.length})</option>
              <option value="failed">Failed</option>
              <option value="passed">Passed</option>
            </SelectInput>
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium">
            Evaluator
            <SelectInput value={evaluator} onChange={(e) => setEvaluator(e.target.value)} aria-label="Evaluator">
              <option value="">Every evaluator</option>
              {names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </SelectInput>
          </label>
          <label className="flex w-28 flex-col gap-1 text-xs font-medium">
            Score at most
            <Input
              type="number"
              min={0}
              max={1}
              step={0.1}
              value={maxScore}
              placeholder="any"
              onChange={(e) => setMaxScore(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium">
            Sort
            <SelectInput value={sort} onChange={(e) => setSort(e.target.value as RowSort)} aria-label="Sort rows">
              <option value="testset">Testset order</option>
              <option value="score-asc">Lowest score first</option>
              <option value="score-desc">Highest score first</option>
              <option value="latency-desc">Slowest first</option>
              <option value="cost-desc">Most expensive first</option>
            </SelectInput>
          </label>
          {baselines.length > 0 && (
            <label className="flex min-w-0 flex-col gap-1 text-xs font-medium">
              Deltas against
              <SelectInput
                value={baselineId}
                onChange={(e) => setBaselineId(e.target.value)}
                aria-label="Deltas against"
              >
                <option value="">No other run</option>
                {baselines.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name ?? b.id.slice(0, 8)} · {new Date(b.created_at).toLocaleString("en")}
                  </option>
                ))}
              </SelectInput>
            </label>
          )}
        </div>
        <div
          className="hidden gap-3 border-b border-line px-4 py-2 text-xs font-medium text-muted lg:grid lg:grid-cols-[2.5rem_minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,2fr)_minmax(0,1.3fr)_7rem]"
          aria-hidden="true"
        >
          <span>#</span>
          <span>Inputs</span>
          <span>Expected</span>
          <span>Output</span>
          <span>Scores</span>
          <span>Cost</span>
        </div>
        {rows.length === 0 ? (
          <EmptyState
            title={running ? "Starting…" : "No rows"}
            description="The testset's rows appear here as the run takes them."
          />
        ) : shown.length === 0 ? (
          <EmptyState title="No row matches" description="Loosen the filters to see more rows." />
        ) : (
          <ol className="divide-y divide-line" aria-label="Results">
            {shown.map((row) => (
              <ResultsRow key={row.scenario_id} row={row} index={rows.indexOf(row)} evaluators={names} />
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
