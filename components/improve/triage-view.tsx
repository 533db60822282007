"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { evaluatorPath } from "@/components/evaluators/evaluator-paths";
import { useCanEdit } from "@/components/shell/account-context";
import { testsetPaths } from "@/components/testsets/testset-paths";
import { tracePath } from "@/components/traces/trace-paths";
import { useTRPC } from "@/components/trpc";
import {
  Badge,
  Button,
  Card,
  EmptyState,
  FormDialog,
  Notice,
  QueryView,
  Skeleton,
  TextField,
  TimeAgo,
} from "@/components/ui";
import { describeEvidence, previewValue } from "./describe-evidence";
import { ImproveDialog } from "./improve-dialog";
import { formatUsd, isActive } from "./report-math";
import { CancelButton } from "./cancel-button";
import { ImproveStatusBadge } from "./status-badge";
import type { EvaluatorProposed, FailureMode, TestsetRevisionMade, Triage } from "./types";

const POLL_MS = 1_000;

/** /improve/triages/[id]: progress while it runs, then the failure modes and what to do with each. */
export function TriageView({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const triage = useQuery({
    ...trpc.improve.triage.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? POLL_MS : false),
  });
  const cancel = useMutation(
    trpc.improve.cancelTriage.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.improve.triage.queryKey({ id }) }),
    }),
  );

  return (
    <QueryView
      query={triage}
      pending={
        <div role="status" aria-label="Loading triage" className="flex flex-col gap-4">
          <Skeleton className="h-24" />
          <Skeleton className="h-48" />
        </div>
      }
      errorTitle="Could not load the triage"
    >
      {(t) => {
        const modes = t.failure_modes ?? [];
        return (
          <div className="flex min-w-0 flex-col gap-5">
            <Card>
              <div className="flex flex-col gap-3 p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="min-w-0 text-base font-semibold wrap-anywhere">{describeEvidence(t.evidence)}</h2>
                  <ImproveStatusBadge status={t.status} />
                  <span className="text-xs text-muted">
                    started <TimeAgo iso={t.created_at} />
                  </span>
                  {isActive(t.status) && <CancelButton cancel={cancel} id={id} canEdit={canEdit} />}
                </div>
                <TriageProgress triage={t} />
                {t.method === "heuristic" && t.method_note && (
                  <Notice title="Grouped without a model">{t.method_note}</Notice>
                )}
                {t.status === "failed" && t.error && (
                  <Notice tone="danger" title="The triage failed">
                    <span className="wrap-anywhere">{t.error}</span>
                  </Notice>
                )}
                {cancel.isError && <Notice tone="danger">{cancel.error.message}</Notice>}
              </div>
            </Card>
            {modes.length === 0 ? (
              !isActive(t.status) && (
                <Card>
                  <EmptyState
                    title="No failure found"
                    description="Nothing in this evidence failed: no error, no low score, no negative annotation."
                  />
                </Card>
              )
            ) : (
              <section aria-label="Failure modes" className="flex flex-col gap-4">
                <h2 className="text-sm font-semibold">
                  {modes.length} failure mode{modes.length === 1 ? "" : "s"}
                </h2>
                {[...modes]
                  .sort((a, b) => b.count - a.count)
                  .map((mode) => (
                    <FailureModeCard key={mode.id} mode={mode} canEdit={canEdit} />
                  ))}
              </section>
            )}
          </div>
        );
      }}
    </QueryView>
  );
}

function TriageProgress({ triage: t }: { triage: Triage }) {
  const p = t.progress;
  const total = p?.total ?? 0;
  const examined = p?.examined ?? 0;
  return (
    <div className="flex flex-col gap-1.5">
      {isActive(t.status) && (
        <div
          role="progressbar"
          aria-label="Traces examined"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={examined}
          className="h-2 overflow-hidden rounded-full bg-surface-muted"
        >
          <div
            className="h-full rounded-full bg-accent transition-[width]"
            style={{ width: `${total > 0 ? Math.round((examined / total) * 100) : 0}%` }}
          />
        </div>
      )}
      <p className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted tabular-nums" data-testid="triage-progress">
        <span>
          {examined} of {total} examined
        </span>
        {p?.batches_total !== undefined && (
          <span>
            {p.batches_done ?? 0} of {p.batches_total} batches
          </span>
        )}
        <span>{t.method === "heuristic" ? "grouped by what is known" : t.model ? `model ${t.model}` : ""}</span>
        <span>spent {formatUsd(t.cost_usd ?? p?.spend_usd ?? "0")}</span>
      </p>
    </div>
  );
}

const SIGNATURE_LABELS = { evaluator: "evaluator", error_class: "error", tool: "tool", stop_reason: "stop reason" };

function FailureModeCard({ mode, canEdit }: { mode: FailureMode; canEdit: boolean }) {
  const [dialog, setDialog] = useState<"testset" | "evaluator" | "improve">();
  const [testset, setTestset] = useState<TestsetRevisionMade>();
  const [evaluator, setEvaluator] = useState<EvaluatorProposed>();
  const signature = Object.entries(mode.signature ?? {}).filter(([, v]) => v);
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          <span data-testid="failure-mode-name">{mode.name}</span>
          <Badge tone="danger">{mode.count} failing</Badge>
        </span>
      }
      description={mode.description}
      actions={
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setDialog("testset")} disabled={!canEdit}>
            Make testset
          </Button>
          <Button size="sm" onClick={() => setDialog("evaluator")} disabled={!canEdit}>
            Propose evaluator
          </Button>
          <Button size="sm" variant="primary" onClick={() => setDialog("improve")} disabled={!canEdit}>
            Improve
          </Button>
        </div>
      }
      className="min-w-0"
    >
      <div className="flex flex-col gap-3 p-5" data-testid="failure-mode">
        {signature.length > 0 && (
          <p className="flex flex-wrap gap-1.5 text-xs">
            {signature.map(([k, v]) => (
              <Badge key={k}>
                {SIGNATURE_LABELS[k as keyof typeof SIGNATURE_LABELS] ?? k}: {String(v)}
              </Badge>
            ))}
          </p>
        )}
        {testset && (
          <Notice tone="success" title="Testset made">
            <Link href={testsetPaths.editor(testset.testset_id)} className="underline">
              v{String(testset.version)} with {testset.testcases} testcase{testset.testcases === 1 ? "" : "s"}
            </Link>
            ; “Improve” starts with it.
          </Notice>
        )}
        {evaluator && (
          <Notice tone="success" title="Evaluator proposed">
            <Link href={evaluatorPath(evaluator.evaluator_id)} className="underline wrap-anywhere">
              {evaluator.evaluator_slug ?? "Open it"}
            </Link>
            {evaluator.summary ? `: ${evaluator.summary}` : ""}
          </Notice>
        )}
        <ol
          className="flex flex-col divide-y divide-line rounded-lg border border-line"
          aria-label={`Examples of ${mode.name}`}
        >
          {mode.examples.map((ex, i) => (
            <li
              key={`${ex.trace_id ?? ex.testcase_id ?? ""}-${i}`}
              className="flex min-w-0 flex-col gap-1 px-3 py-2 text-sm"
            >
              <span className="grid gap-1 sm:grid-cols-2 sm:gap-4">
                <span className="min-w-0 wrap-anywhere">
                  <span className="text-xs text-muted">In </span>
                  {previewValue(ex.input)}
                </span>
                <span className="min-w-0 wrap-anywhere">
                  <span className="text-xs text-muted">Out </span>
                  {previewValue(ex.output)}
                </span>
              </span>
              {ex.feedback && <span className="text-xs wrap-anywhere text-muted">Feedback: {ex.feedback}</span>}
              {ex.expected !== undefined && ex.expected !== null && (
                <span className="text-xs wrap-anywhere text-muted">Expected: {previewValue(ex.expected)}</span>
              )}
              {ex.trace_id && (
                <Link
                  href={tracePath(ex.trace_id, ex.span_id)}
                  className="w-fit text-xs font-medium text-accent underline-offset-2 hover:underline"
                >
                  Open trace
                </Link>
              )}
            </li>
          ))}
        </ol>
      </div>
      {dialog === "testset" && (
        <MakeTestsetDialog
          mode={mode}
          onClose={() => setDialog(undefined)}
          onMade={(made) => {
            setTestset(made);
            setDialog(undefined);
          }}
        />
      )}
      {dialog === "evaluator" && (
        <ProposeEvaluatorDialog
          mode={mode}
          onClose={() => setDialog(undefined)}
          onMade={(made) => {
            setEvaluator(made);
            setDialog(undefined);
          }}
        />
      )}
      {dialog === "improve" && (
        <ImproveDialog
          onClose={() => setDialog(undefined)}
          failureModeId={mode.id}
          testsetRevisionId={testset?.revision_id}
        />
      )}
    </Card>
  );
}

function MakeTestsetDialog({
  mode,
  onClose,
  onMade,
}: {
  mode: FailureMode;
  onClose: () => void;
  onMade: (made: TestsetRevisionMade) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState("");
  const [name, setName] = useState(mode.name);
  const testsets = useQuery(trpc.testsets.list.queryOptions({ limit: 200 }));
  const make = useMutation(
    trpc.improve.failureModeToTestset.mutationOptions({
      onSuccess: async (made) => {
        await queryClient.invalidateQueries({ queryKey: trpc.evaluations.testsets.queryKey() });
        onMade(made);
      },
    }),
  );
  return (
    <FormDialog
      onClose={onClose}
      title="Make a testset"
      description={`The examples' inputs become testcases, with the expected output where a person's annotation or correction gives one.`}
      onSubmit={() => {
        make.mutate(target ? { id: mode.id, testset_id: target } : { id: mode.id, name: name.trim() });
      }}
      submitLabel={target ? "Add a revision" : "Create testset"}
      busy={make.isPending}
      disabled={!target && !name.trim()}
      error={make.error}
      errorTitle="Not made"
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Into
        <SelectInput value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">A new testset</option>
          {(testsets.data?.items ?? []).map((t) => (
            <option key={t.testset.id} value={t.testset.id}>
              A new revision of {t.testset.name ?? t.testset.slug}
            </option>
          ))}
        </SelectInput>
      </label>
      {!target && <TextField label="Name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />}
    </FormDialog>
  );
}

const EVALUATOR_KINDS = {
  llm_judge: "A judge model with a rubric for this failure",
  regex: "A pattern the output must (not) match",
  code: "A code check",
} as const;

function ProposeEvaluatorDialog({
  mode,
  onClose,
  onMade,
}: {
  mode: FailureMode;
  onClose: () => void;
  onMade: (made: EvaluatorProposed) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<keyof typeof EVALUATOR_KINDS>("llm_judge");
  const make = useMutation(
    trpc.improve.failureModeToEvaluator.mutationOptions({
      onSuccess: async (made) => {
        await queryClient.invalidateQueries({ queryKey: trpc.evaluators.list.queryKey() });
        onMade(made);
      },
    }),
  );
  return (
    <FormDialog
      onClose={onClose}
      title="Propose an evaluator"
      description={`Commits an evaluator that catches “${mode.name}”, to score every later run.`}
      onSubmit={() => {
        make.mutate({ id: mode.id, kind });
      }}
      submitLabel="Propose evaluator"
      busy={make.isPending}
      error={make.error}
      errorTitle="Not proposed"
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Kind
        <SelectInput value={kind} onChange={(e) => setKind(e.target.value as keyof typeof EVALUATOR_KINDS)}>
          {Object.entries(EVALUATOR_KINDS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </SelectInput>
      </label>
    </FormDialog>
  );
}
