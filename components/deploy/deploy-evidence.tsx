"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, cn, Notice, QueryError, Skeleton, Spinner, TimeAgo } from "@/components/ui";
import { formatDelta, formatScore, meetsGate, type DeployGate, type EvaluationSummary } from "./evidence-types";
import { RunEvaluationForm } from "./run-evaluation-form";

type Side = { latest?: EvaluationSummary; running?: EvaluationSummary } | undefined;

/**
 * The deploy dialog's evidence: for the revision about to run and the one running now, the
 * latest evaluation on the same testset, the score deltas between them, and, for production
 * under the project's rule, whether the deploy will be accepted. "Not evaluated" offers a run.
 */
export function DeployEvidence({
  environment,
  revision,
  current,
}: {
  environment: string;
  revision: { id: string; label: string };
  current?: { id: string; label: string };
}) {
  const trpc = useTRPC();
  const canEdit = useCanEdit();
  const [running, setRunning] = useState(false);
  const differs = current && current.id !== revision.id ? current : undefined;
  const evidence = useQuery({
    ...trpc.deployGate.evidence.queryOptions({ revisionId: revision.id, currentRevisionId: differs?.id }),
    refetchInterval: (query) =>
      query.state.data?.candidate.running || query.state.data?.current?.running ? 1500 : false,
  });

  if (evidence.isPending)
    return (
      <div role="status" aria-label="Loading evaluations">
        <Skeleton className="h-36 w-full" />
      </div>
    );
  if (evidence.isError)
    return (
      <QueryError
        title="Could not load the evaluations"
        error={evidence.error}
        onRetry={() => evidence.refetch()}
        retrying={evidence.isFetching}
      />
    );
  const { gate, candidate, deltas } = evidence.data;
  const now = evidence.data.current;
  const gated = gate && environment === "production" ? gate : undefined;
  const testsetName = candidate.latest?.testset?.slug ?? now?.latest?.testset?.slug ?? gate?.testset.slug ?? undefined;
  const missing = !candidate.latest && !candidate.running;

  return (
    <section
      aria-labelledby="deploy-evidence-title"
      className="flex flex-col gap-3 rounded-lg border border-line px-4 py-3"
      data-testid="deploy-evidence"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="deploy-evidence-title" className="text-sm font-semibold">
          Evaluation
          {testsetName && (
            <span className="ml-1.5 font-normal text-muted">
              on testset <span className="font-mono">{testsetName}</span>
            </span>
          )}
        </h3>
        {canEdit && !running && (
          <Button size="sm" variant={missing ? "primary" : "ghost"} onClick={() => setRunning(true)}>
            {missing ? "Run an evaluation" : "Run another evaluation"}
          </Button>
        )}
      </header>

      <div className={cn("grid gap-3", differs && "sm:grid-cols-2")}>
        {differs && (
          <EvidenceColumn title={`Now in ${environment}: ${differs.label}`} side={now} testid="evidence-current" />
        )}
        <EvidenceColumn
          title={differs ? `After deploy: ${revision.label}` : revision.label}
          side={candidate}
          deltas={differs ? deltas : undefined}
          testid="evidence-candidate"
        />
      </div>

      {gated && <GateVerdict gate={gated} candidate={candidate.latest} label={revision.label} />}

      {running && (
        <RunEvaluationForm
          revisions={[
            { id: revision.id, label: revision.label, picked: true },
            ...(differs ? [{ id: differs.id, label: differs.label, picked: !now?.latest && !now?.running }] : []),
          ]}
          defaultTestsetId={evidence.data.testsetId}
          defaultEvaluatorId={gate?.evaluator.id}
          onStarted={() => setRunning(false)}
          onCancel={() => setRunning(false)}
        />
      )}
    </section>
  );
}

function EvidenceColumn({
  title,
  side,
  deltas,
  testid,
}: {
  title: string;
  side: Side;
  deltas?: Record<string, number>;
  testid: string;
}) {
  const latest = side?.latest;
  return (
    <div className="flex min-w-0 flex-col gap-2 rounded-md bg-surface-muted/50 px-3 py-2.5" data-testid={testid}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-xs font-medium text-muted">{title}</span>
        {side?.running && (
          <Badge tone="accent">
            <Spinner className="size-3" /> Evaluating…
          </Badge>
        )}
      </div>
      {latest ? (
        <>
          <ul className="flex flex-col gap-1.5">
            {latest.scores.map((s) => {
              const delta = deltas?.[s.evaluatorSlug];
              return (
                <li key={s.evaluatorSlug} className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="min-w-0 truncate font-mono text-xs" title={s.evaluatorSlug}>
                    {s.evaluatorSlug}
                    {s.origin === "human" && <span className="ml-1 font-sans text-muted">(people)</span>}
                  </span>
                  <span className="flex shrink-0 items-baseline gap-2">
                    <span className="font-mono text-base font-semibold tabular-nums" data-testid="evidence-score">
                      {s.score === undefined ? "—" : formatScore(s.score)}
                    </span>
                    {delta !== undefined && (
                      <span
                        className={cn(
                          "font-mono text-xs tabular-nums",
                          delta > 0 ? "text-success" : delta < 0 ? "text-danger" : "text-muted",
                        )}
                        data-testid="evidence-delta"
                        aria-label={`${delta > 0 ? "up" : delta < 0 ? "down" : "unchanged"} ${formatScore(Math.abs(delta))}`}
                      >
                        {formatDelta(delta)}
                      </span>
                    )}
                    <span className="text-xs text-muted tabular-nums">
                      {s.count} {s.count === 1 ? "case" : "cases"}
                    </span>
                  </span>
                </li>
              );
            })}
          </ul>
          <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
            {latest.status === "errors" && <Badge tone="warning">finished with errors</Badge>}
            {latest.testset?.version && <span>testset v{latest.testset.version} ·</span>}
            evaluated <TimeAgo iso={latest.createdAt} />
          </p>
        </>
      ) : (
        !side?.running && (
          <p className="text-sm text-muted" data-testid="not-evaluated">
            Not evaluated
          </p>
        )
      )}
    </div>
  );
}

function GateVerdict({ gate, candidate, label }: { gate: DeployGate; candidate?: EvaluationSummary; label: string }) {
  const rule = (
    <>
      Production needs a mean score of at least <strong className="font-mono">{formatScore(gate.minScore)}</strong> from{" "}
      <span className="font-mono">{gate.evaluator.slug}</span> on testset{" "}
      <span className="font-mono">{gate.testset.slug}</span>.
    </>
  );
  return meetsGate(candidate, gate) ? (
    <Notice tone="success" title={`${label} meets the production rule`}>
      {rule}
    </Notice>
  ) : (
    <Notice tone="warning" title={`${label} does not meet the production rule yet`}>
      {rule} The server refuses this deploy until an evaluation that finished without errors scores enough.
    </Notice>
  );
}
