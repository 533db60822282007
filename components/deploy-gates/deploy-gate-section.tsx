"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatScore, type DeployGate } from "@/components/deploy/evidence-types";
import { SelectInput } from "@/components/editor/select-input";
import { useAccount } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Card, Input, Notice, Skeleton, TimeAgo, useToast } from "@/components/ui";

/**
 * The production deploy rule: owners set which evaluation a revision needs before it may run in
 * production; everyone else sees the rule, so a refused deploy can be understood.
 */
export function DeployGateSection() {
  const trpc = useTRPC();
  const isOwner = useAccount().current?.role === "owner";
  const gate = useQuery(trpc.deployGate.get.queryOptions());
  const [editing, setEditing] = useState(false);

  return (
    <Card
      title="Production deploy rule"
      labelledBy="deploy-gate-title"
      description="Require an evaluation at or above a score before a revision may be deployed to production. Every deploy path is checked: the playground, the REST API and environment commits."
      actions={
        isOwner &&
        gate.data !== undefined &&
        !editing && (
          <Button size="sm" onClick={() => setEditing(true)}>
            {gate.data ? "Change rule" : "Add a rule"}
          </Button>
        )
      }
    >
      <div className="p-5" data-testid="deploy-gate">
        {gate.isPending ? (
          <div role="status" aria-label="Loading the deploy rule">
            <Skeleton className="h-10 w-full max-w-lg" />
          </div>
        ) : gate.isError ? (
          <Notice tone="danger">{gate.error.message}</Notice>
        ) : editing ? (
          <DeployGateForm gate={gate.data ?? undefined} onDone={() => setEditing(false)} />
        ) : gate.data ? (
          <GateSummary gate={gate.data} />
        ) : (
          <p className="text-sm text-muted">
            No rule: production takes any deploy.{" "}
            {!isOwner && "Owners can require an evaluation before deploys to production."}
          </p>
        )}
      </div>
    </Card>
  );
}

function GateSummary({ gate }: { gate: DeployGate }) {
  return (
    <div className="flex flex-col gap-1.5 text-sm">
      <p>
        A revision deploys to production only when its latest evaluation on testset{" "}
        <span className="font-mono font-medium">{gate.testset.slug ?? gate.testset.id}</span>, finished without errors,
        has a mean score from <span className="font-mono font-medium">{gate.evaluator.slug ?? gate.evaluator.id}</span>{" "}
        of at least <strong className="font-mono">{formatScore(gate.minScore)}</strong>.
      </p>
      <p className="text-xs text-muted">
        Set <TimeAgo iso={gate.updatedAt} />. Other environments take any deploy.
      </p>
    </div>
  );
}

function DeployGateForm({ gate, onDone }: { gate?: DeployGate; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const id = useId();
  const choices = useQuery(trpc.deployGate.choices.queryOptions());
  const [testsetId, setTestsetId] = useState(gate?.testset.id ?? "");
  const [evaluatorId, setEvaluatorId] = useState(gate?.evaluator.id ?? "");
  const [minScore, setMinScore] = useState(gate ? String(gate.minScore) : "0.8");
  const done = async (title: string) => {
    await queryClient.invalidateQueries({ queryKey: trpc.deployGate.pathKey() });
    toast({ title });
    onDone();
  };
  const save = useMutation(trpc.deployGate.set.mutationOptions({ onSuccess: () => done("Deploy rule saved") }));
  const clear = useMutation(trpc.deployGate.clear.mutationOptions({ onSuccess: () => done("Deploy rule removed") }));

  if (choices.isPending) return <Skeleton className="h-24 w-full max-w-lg" />;
  if (choices.isError) return <Notice tone="danger">{choices.error.message}</Notice>;
  const { testsets, evaluators } = choices.data;
  if (testsets.length === 0 || evaluators.length === 0)
    return (
      <div className="flex flex-col items-start gap-3">
        <Notice title="Nothing to require yet">
          A rule names a testset and an evaluator; this project has{" "}
          {testsets.length === 0 ? "no testset" : "no evaluator"} yet.
        </Notice>
        <Button size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    );
  const score = Number(minScore);
  const scoreError = minScore.trim() === "" || !Number.isFinite(score) ? "A number, such as 0.8" : undefined;
  const testset = testsetId || testsets[0].id;
  const evaluator = evaluatorId || evaluators[0].id;

  return (
    <form
      aria-label="Production deploy rule"
      className="flex max-w-2xl flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!scoreError) save.mutate({ testsetId: testset, evaluatorId: evaluator, minScore: score });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-testset`} className="text-sm font-medium">
            Testset
          </label>
          <SelectInput id={`${id}-testset`} value={testset} onChange={(e) => setTestsetId(e.target.value)}>
            {testsets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name || t.slug}
              </option>
            ))}
          </SelectInput>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-evaluator`} className="text-sm font-medium">
            Evaluator
          </label>
          <SelectInput id={`${id}-evaluator`} value={evaluator} onChange={(e) => setEvaluatorId(e.target.value)}>
            {evaluators.map((ev) => (
              <option key={ev.id} value={ev.id}>
                {ev.name || ev.slug}
              </option>
            ))}
          </SelectInput>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-score`} className="text-sm font-medium">
            Minimum mean score
          </label>
          <Input
            id={`${id}-score`}
            inputMode="decimal"
            value={minScore}
            onChange={(e) => setMinScore(e.target.value)}
            aria-invalid={scoreError ? true : undefined}
            aria-describedby={`${id}-score-hint`}
          />
          <span id={`${id}-score-hint`} className={scoreError ? "text-xs text-danger" : "text-xs text-muted"}>
            {scoreError ?? "Pass/fail evaluators score 0 to 1 (the share passed)."}
          </span>
        </div>
      </div>
      {(save.error ?? clear.error) && <Notice tone="danger">{(save.error ?? clear.error)!.message}</Notice>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" loading={save.isPending} disabled={Boolean(scoreError)}>
          Save rule
        </Button>
        <Button type="button" onClick={onDone}>
          Cancel
        </Button>
        {gate && (
          <Button
            type="button"
            variant="ghost"
            className="sm:ml-auto"
            loading={clear.isPending}
            onClick={() => clear.mutate()}
          >
            Remove rule
          </Button>
        )}
      </div>
    </form>
  );
}
