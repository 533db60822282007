"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { DiffView, diffJson } from "@/components/diff";
import { environmentPath } from "@/components/environments/paths";
import { agentPaths } from "@/components/history/paths";
import { templateOf } from "@/components/history/types";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import {
  Badge,
  Button,
  Card,
  Notice,
  QueryError,
  QueryView,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableColumnHeader,
  TableHeaderGroup,
  TableRow,
  TimeAgo,
} from "@/components/ui";
import { strategyLabel } from "./describe-evidence";
import { triagePath } from "./improve-paths";
import {
  amount,
  differenceVerdict,
  formatChange,
  formatPoints,
  formatScore,
  formatUsd,
  isActive,
  progressShare,
  relativeChange,
} from "./report-math";
import { useOptimizationStream } from "./optimization-stream";
import { RoundChart } from "./round-chart";
import { CanaryDialog, type ShipOutcome } from "./ship-dialog";
import { CancelButton } from "./cancel-button";
import { ImproveStatusBadge } from "./status-badge";
import type { Optimization, OptimizationResult, TriageEvidence } from "./types";

const POLL_MS = 1_000;

/**
 * /improve/optimizations/[id], the report: progress and a per-round chart while it runs (live,
 * from the optimization's event stream; polled each second only once that stream closed early),
 * then the winner against the base (the diff, the scores on the training and the held-out split,
 * each testcase's win or loss, the bootstrap interval, cost and latency) and the ways to ship it.
 */
export function OptimizationView({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const stream = useOptimizationStream(id);
  const optimization = useQuery({
    ...trpc.improve.optimization.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) && stream === "closed" ? POLL_MS : false),
  });
  const cancel = useMutation(
    trpc.improve.cancelOptimization.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.improve.optimization.queryKey({ id }) }),
    }),
  );

  return (
    <QueryView
      query={optimization}
      pending={
        <div role="status" aria-label="Loading optimization" className="flex flex-col gap-4">
          <Skeleton className="h-28" />
          <Skeleton className="h-56" />
        </div>
      }
      errorTitle="Could not load the optimization"
    >
      {(o) => {
        const active = isActive(o.status);
        const history = o.history ?? [];
        return (
          <div className="flex min-w-0 flex-col gap-5">
            <Card>
              <div className="flex flex-col gap-3 p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="min-w-0 text-base font-semibold wrap-anywhere">
                    {o.base_kind === "workflow" ? "Agent" : "Prompt"} revision {o.base_revision_id.slice(0, 8)}
                  </h2>
                  <ImproveStatusBadge status={o.status} />
                  <span className="text-xs text-muted">
                    {o.strategies.map(strategyLabel).join(", ")}
                    {o.model ? ` · ${o.model}` : ""} · started <TimeAgo iso={o.created_at} />
                  </span>
                  {active && <CancelButton cancel={cancel} id={id} canEdit={canEdit} />}
                </div>
                <OptimizationProgressBar optimization={o} />
                {active && stream === "closed" && (
                  <Notice tone="warning" title="Live updates stopped">
                    The server closed the progress stream; this page now refreshes every second.
                  </Notice>
                )}
                {o.failure_mode_id && <FailureModeLink id={o.failure_mode_id} />}
                {o.status === "stopped" && (
                  <Notice tone="warning" title="Stopped at the spend cap">
                    The result is the best of what it had evaluated when it reached {formatUsd(o.spend_cap_usd)}.
                  </Notice>
                )}
                {o.status === "failed" && (
                  <Notice tone="danger" title="The optimization failed">
                    <span className="wrap-anywhere">{o.error ?? "No reason was recorded."}</span>
                  </Notice>
                )}
                {cancel.isError && <Notice tone="danger">{cancel.error.message}</Notice>}
              </div>
            </Card>

            {history.length > 0 && (
              <Card title="Rounds" labelledBy="rounds-title" description="Train scores of each round's candidates.">
                <div className="flex flex-col gap-4 p-5">
                  <RoundChart history={history} baseScore={o.result?.base.train_score} />
                  <RoundsTable optimization={o} />
                </div>
              </Card>
            )}

            {o.result && <Report optimization={o} result={o.result} canEdit={canEdit} />}
          </div>
        );
      }}
    </QueryView>
  );
}

function OptimizationProgressBar({ optimization: o }: { optimization: Optimization }) {
  const p = o.progress;
  const share = progressShare(p);
  return (
    <div className="flex flex-col gap-1.5">
      <div
        role="progressbar"
        aria-label="Cells evaluated"
        aria-valuemin={0}
        aria-valuemax={p?.cells_total ?? 0}
        aria-valuenow={p?.cells_done ?? 0}
        className="h-2 overflow-hidden rounded-full bg-surface-muted"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width]"
          style={{ width: `${Math.round((isActive(o.status) ? share : 1) * 100)}%` }}
        />
      </div>
      <p
        className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted tabular-nums"
        data-testid="optimization-progress"
      >
        <span>
          Round {p?.round ?? 0} of {p?.rounds ?? o.rounds}
        </span>
        {p?.candidates !== undefined && (
          <span>
            candidate {p.candidate ?? 0} of {p.candidates}
          </span>
        )}
        <span>
          {p?.cells_done ?? 0} / {p?.cells_total ?? 0} cells
        </span>
        <span>best {formatScore(p?.best_score)}</span>
        <span>
          spent {formatUsd(o.spend_usd ?? p?.spend_usd ?? "0")} of {formatUsd(o.spend_cap_usd)}
        </span>
        {o.split && (
          <span>
            {o.split.train} train / {o.split.holdout} held-out cases
          </span>
        )}
      </p>
    </div>
  );
}

function FailureModeLink({ id }: { id: string }) {
  const trpc = useTRPC();
  const mode = useQuery(trpc.improve.failureMode.queryOptions({ id }));
  if (!mode.data) return null;
  return (
    <p className="text-xs text-muted">
      Improves{" "}
      <Link
        href={triagePath(mode.data.triage_id)}
        className="font-medium text-accent underline-offset-2 hover:underline"
      >
        {mode.data.name}
      </Link>
    </p>
  );
}

function RoundsTable({ optimization: o }: { optimization: Optimization }) {
  const winner = o.result?.winner_revision_id;
  return (
    <Table aria-label="Candidates" stacked>
      <TableHeaderGroup>
        <TableRow>
          <TableColumnHeader>Round</TableColumnHeader>
          <TableColumnHeader>Candidate</TableColumnHeader>
          <TableColumnHeader>Strategy</TableColumnHeader>
          <TableColumnHeader>Train score</TableColumnHeader>
          <TableColumnHeader>What changed</TableColumnHeader>
        </TableRow>
      </TableHeaderGroup>
      <TableBody>
        {(o.history ?? []).flatMap((r) =>
          r.candidates.map((c, i) => (
            <TableRow key={c.revision_id ?? `${r.round}-${i}`} data-testid="candidate-row">
              <TableCell label="Round" className="tabular-nums">
                {r.round}
              </TableCell>
              <TableCell label="Candidate" className="font-mono text-xs whitespace-normal wrap-anywhere">
                {c.variant_slug ?? c.revision_id?.slice(0, 8) ?? "—"}
                {c.version !== undefined ? ` v${c.version}` : ""}
                {c.revision_id === winner && (
                  <Badge tone="success" className="ml-1.5 font-sans">
                    winner
                  </Badge>
                )}
              </TableCell>
              <TableCell label="Strategy" className="text-xs">
                {strategyLabel(c.strategy)}
              </TableCell>
              <TableCell label="Train score" className="tabular-nums">
                {formatScore(c.train_score)}
              </TableCell>
              <TableCell label="What changed" className="min-w-48 text-xs whitespace-normal wrap-anywhere text-muted">
                {c.summary ?? "—"}
              </TableCell>
            </TableRow>
          )),
        )}
      </TableBody>
    </Table>
  );
}

function Report({
  optimization: o,
  result,
  canEdit,
}: {
  optimization: Optimization;
  result: OptimizationResult;
  canEdit: boolean;
}) {
  const d = result.difference;
  const verdict = differenceVerdict(d);
  // The comparison is over the held-out split, or the training split when none was left out.
  const heldOut = result.split !== "train";
  const pick = (side: OptimizationResult["base"]) => (heldOut ? side.holdout_score : side.train_score);
  const baseScore = pick(result.base);
  const winnerScore = pick(result.winner);
  const delta = baseScore !== undefined && winnerScore !== undefined ? winnerScore - baseScore : undefined;
  const sameRevision = result.winner_revision_id === o.base_revision_id;
  return (
    <>
      <Notice
        tone={sameRevision ? "info" : verdict === "better" ? "success" : verdict === "worse" ? "danger" : "warning"}
        title={
          sameRevision
            ? "No candidate beat the base"
            : `The winner scores ${formatScore(winnerScore)} on the ${heldOut ? "held-out" : "training"} cases, the base ${formatScore(baseScore)} (${formatPoints(delta)})`
        }
      >
        {d && (
          <span data-testid="difference-interval">
            {Math.round(d.confidence * 100)}% interval of the difference: {formatPoints(d.ci_low)} to{" "}
            {formatPoints(d.ci_high)}
            {verdict === "better"
              ? ": better beyond noise."
              : verdict === "worse"
                ? ": worse beyond noise."
                : ": it may be noise."}
          </span>
        )}
      </Notice>

      <Card title="Base and winner" labelledBy="scores-title">
        <Table aria-label="Base and winner" stacked>
          <TableHeaderGroup>
            <TableRow>
              <TableColumnHeader>Measure</TableColumnHeader>
              <TableColumnHeader>Base</TableColumnHeader>
              <TableColumnHeader>Winner</TableColumnHeader>
              <TableColumnHeader>Change</TableColumnHeader>
            </TableRow>
          </TableHeaderGroup>
          <TableBody>
            <ScoreRow label="Train score" base={result.base.train_score} winner={result.winner.train_score} />
            <ScoreRow label="Held-out score" base={result.base.holdout_score} winner={result.winner.holdout_score} />
            <TableRow>
              <TableCell label="Measure">Cost per case</TableCell>
              <TableCell label="Base" className="tabular-nums">
                {formatUsd(result.base.cost_usd_per_case)}
              </TableCell>
              <TableCell label="Winner" className="tabular-nums">
                {formatUsd(result.winner.cost_usd_per_case)}
              </TableCell>
              <TableCell label="Change" className="tabular-nums" data-testid="cost-change">
                {formatChange(
                  relativeChange(amount(result.base.cost_usd_per_case), amount(result.winner.cost_usd_per_case)),
                )}
              </TableCell>
            </TableRow>
            <TableRow>
              <TableCell label="Measure">Latency (median)</TableCell>
              <TableCell label="Base" className="tabular-nums">
                {result.base.latency_ms_p50 !== undefined ? `${Math.round(result.base.latency_ms_p50)} ms` : "—"}
              </TableCell>
              <TableCell label="Winner" className="tabular-nums">
                {result.winner.latency_ms_p50 !== undefined ? `${Math.round(result.winner.latency_ms_p50)} ms` : "—"}
              </TableCell>
              <TableCell label="Change" className="tabular-nums" data-testid="latency-change">
                {formatChange(relativeChange(result.base.latency_ms_p50, result.winner.latency_ms_p50))}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        {d && (
          <p className="border-t border-line px-5 py-3 text-xs text-muted">
            Difference of the mean {heldOut ? "held-out" : "training"} score {formatPoints(d.mean)},{" "}
            {Math.round(d.confidence * 100)}% interval {formatPoints(d.ci_low)} to {formatPoints(d.ci_high)}
            {d.method ? ` by ${d.method}` : ""}
            {d.resamples ? ` (${d.resamples.toLocaleString("en")} resamples)` : ""}.
          </p>
        )}
      </Card>

      {!sameRevision && <Ship optimization={o} result={result} canEdit={canEdit} />}
      {!sameRevision && <WinnerDiff optimization={o} result={result} />}
      <PerTestcase result={result} heldOut={heldOut} />
    </>
  );
}

function ScoreRow({ label, base, winner }: { label: string; base?: number; winner?: number }) {
  return (
    <TableRow>
      <TableCell label="Measure">{label}</TableCell>
      <TableCell label="Base" className="tabular-nums">
        {formatScore(base)}
      </TableCell>
      <TableCell label="Winner" className="tabular-nums">
        {formatScore(winner)}
      </TableCell>
      <TableCell label="Change" className="tabular-nums">
        {base !== undefined && winner !== undefined ? formatPoints(winner - base) : "—"}
      </TableCell>
    </TableRow>
  );
}

/** The base's and the winner's template (or prompt), side by side. */
function WinnerDiff({ optimization: o, result }: { optimization: Optimization; result: OptimizationResult }) {
  const trpc = useTRPC();
  const base = useQuery(trpc.improve.revision.queryOptions({ id: o.base_revision_id, kind: o.base_kind }));
  const winner = useQuery(trpc.improve.revision.queryOptions({ id: result.winner_revision_id, kind: o.base_kind }));
  const rows = useMemo(() => {
    if (!base.data || !winner.data) return undefined;
    const content = (r: { data?: unknown }) => (o.base_kind === "workflow" ? templateOf(r) : r.data);
    return diffJson(content(base.data), content(winner.data));
  }, [base.data, winner.data, o.base_kind]);
  const failed = base.error ?? winner.error;
  return (
    <Card
      title="What changed"
      labelledBy="diff-title"
      description={`The base against the winner${result.winner_variant_slug ? ` (${result.winner_variant_slug})` : ""}.`}
    >
      <div className="p-4">
        {failed ? (
          <QueryError
            title="Could not load the revisions"
            error={failed}
            onRetry={() => void Promise.all([base.refetch(), winner.refetch()])}
          />
        ) : rows ? (
          <DiffView
            rows={rows}
            label="Base against winner"
            leftLabel={`Base v${base.data?.version}`}
            rightLabel={`Winner v${winner.data?.version}`}
            maxHeightClass="max-h-[32rem]"
          />
        ) : (
          <Skeleton className="h-48" />
        )}
      </div>
    </Card>
  );
}

function PerTestcase({ result, heldOut }: { result: OptimizationResult; heldOut: boolean }) {
  const cases = result.per_testcase ?? [];
  const title = heldOut ? "Held-out testcases" : "Training testcases";
  const [onlyChanged, setOnlyChanged] = useState(true);
  const shown = onlyChanged ? cases.filter((c) => c.outcome !== "tie") : cases;
  return (
    <Card
      title={title}
      labelledBy="testcases-title"
      actions={
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} />
          Wins and losses only
        </label>
      }
    >
      <p className="flex flex-wrap gap-2 px-5 pt-4 text-sm" data-testid="wins-losses">
        <Badge tone="success">{result.wins ?? cases.filter((c) => c.outcome === "win").length} wins</Badge>
        <Badge tone="danger">{result.losses ?? cases.filter((c) => c.outcome === "loss").length} losses</Badge>
        <Badge>{result.ties ?? cases.filter((c) => c.outcome === "tie").length} ties</Badge>
      </p>
      {shown.length === 0 ? (
        <p className="px-5 py-4 text-sm text-muted">
          {cases.length === 0 ? "No testcase was scored." : "No testcase changed."}
        </p>
      ) : (
        <div className="pt-3">
          <Table aria-label={title} stacked>
            <TableHeaderGroup>
              <TableRow>
                <TableColumnHeader>Testcase</TableColumnHeader>
                <TableColumnHeader>Base</TableColumnHeader>
                <TableColumnHeader>Winner</TableColumnHeader>
                <TableColumnHeader>Outcome</TableColumnHeader>
              </TableRow>
            </TableHeaderGroup>
            <TableBody>
              {shown.map((c) => (
                <TableRow key={c.testcase_id} data-testid="testcase-outcome">
                  <TableCell label="Testcase" className="font-mono text-xs">
                    {c.testcase_id.slice(0, 8)}
                  </TableCell>
                  <TableCell label="Base" className="tabular-nums">
                    {formatScore(c.base)}
                  </TableCell>
                  <TableCell label="Winner" className="tabular-nums">
                    {formatScore(c.winner)}
                  </TableCell>
                  <TableCell label="Outcome">
                    <Badge tone={c.outcome === "win" ? "success" : c.outcome === "loss" ? "danger" : "neutral"}>
                      {c.outcome}
                    </Badge>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Card>
  );
}

/** The monitors whose alert the triage behind this optimization examined: the canary's first guards. */
function useFiredMonitors(failureModeId: string | undefined): string[] {
  const trpc = useTRPC();
  const mode = useQuery({
    ...trpc.improve.failureMode.queryOptions({ id: failureModeId ?? "" }),
    enabled: !!failureModeId,
  });
  const triage = useQuery({
    ...trpc.improve.triage.queryOptions({ id: mode.data?.triage_id ?? "" }),
    enabled: !!mode.data,
  });
  const evidence = triage.data?.evidence as TriageEvidence | undefined;
  return evidence?.kind === "monitor_alert" ? [evidence.monitor_id] : [];
}

function Ship({
  optimization: o,
  result,
  canEdit,
}: {
  optimization: Optimization;
  result: OptimizationResult;
  canEdit: boolean;
}) {
  const trpc = useTRPC();
  const fired = useFiredMonitors(o.failure_mode_id);
  const [canary, setCanary] = useState(false);
  const [shipped, setShipped] = useState<ShipOutcome>();
  const review = useMutation(
    trpc.improve.ship.mutationOptions({ onSuccess: (s) => setShipped({ ...s, action: "review" }) }),
  );
  const disabled = !canEdit || o.status === "running";
  return (
    <Card
      title="Ship the winner"
      labelledBy="ship-title"
      description="Start a canary guarded by monitors and a minimum score, or open the winner for review."
      actions={
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => review.mutate({ id: o.id, ship: { action: "review" } })}
            loading={review.isPending}
            disabled={disabled}
          >
            Open for review
          </Button>
          <Button variant="primary" onClick={() => setCanary(true)} disabled={disabled}>
            Start canary
          </Button>
        </div>
      }
    >
      <div className="flex flex-col gap-3 p-5 text-sm">
        <p className="text-muted">
          Winner:{" "}
          <span className="font-mono text-xs text-foreground">
            {result.winner_variant_slug ?? result.winner_revision_id}
          </span>
        </p>
        {shipped?.action === "canary" && (
          <Notice tone="success" title="Canary started">
            The winner now takes its share of {shipped.environment}.{" "}
            <Link href={environmentPath(shipped.environment ?? "")} className="underline">
              Watch it on the environment
            </Link>
            .
          </Notice>
        )}
        {shipped?.action === "review" && (
          <Notice tone="success" title="Opened for review">
            The winner waits on its variant.{" "}
            {o.base_kind === "workflow" && o.base_artifact_id && (
              <Link href={agentPaths.history(o.base_artifact_id, shipped.variant_id)} className="underline">
                Open its history
              </Link>
            )}
          </Notice>
        )}
        {review.isError && (
          <Notice tone="danger" title="Not opened">
            <span className="wrap-anywhere">{review.error.message}</span>
          </Notice>
        )}
      </div>
      {canary && (
        <CanaryDialog
          optimizationId={o.id}
          guarded={fired}
          onClose={() => setCanary(false)}
          onShipped={(s) => {
            setShipped(s);
            setCanary(false);
          }}
        />
      )}
    </Card>
  );
}
