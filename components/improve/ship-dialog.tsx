"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { Fieldset, toggle } from "@/components/evaluations/evaluation-pickers";
import { useTRPC } from "@/components/trpc";
import { FormDialog, Skeleton, TextField } from "@/components/ui";
import type { Shipped } from "./types";

/** What shipping did, with the environment's slug as picked (for the link to it). */
export type ShipOutcome = Shipped & { environment?: string };

/**
 * "Start canary": the winner takes a share of an environment's traffic beside what runs there,
 * rolled back when a guarding monitor fires or its score falls under the minimum. Monitors that
 * fired on the evidence are ticked at first.
 */
export function CanaryDialog({
  optimizationId,
  guarded,
  onClose,
  onShipped,
}: {
  optimizationId: string;
  /** Monitors ticked at first: those whose alert the triage behind this optimization examined. */
  guarded: string[];
  onClose: () => void;
  onShipped: (shipped: ShipOutcome) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const environments = useQuery(trpc.environments.list.queryOptions());
  const monitors = useQuery(trpc.monitors.list.queryOptions());
  const [environment, setEnvironment] = useState("production");
  const [weight, setWeight] = useState("10");
  const [picked, setPicked] = useState<string[]>(guarded);
  const [minScore, setMinScore] = useState("");
  const [scoredBy, setScoredBy] = useState("");
  const live = useQuery({ ...trpc.improve.liveEvaluations.queryOptions(), enabled: minScore.trim() !== "" });
  const ship = useMutation(
    trpc.improve.ship.mutationOptions({
      onSuccess: async (shipped) => {
        await queryClient.invalidateQueries({ queryKey: trpc.environments.pathKey() });
        onShipped({ ...shipped, environment });
      },
    }),
  );
  // A monitor alerting now cannot fire during the canary, so the canary refuses it as a guard.
  const alerting = new Set((monitors.data ?? []).filter((m) => m.state === "alerting").map((m) => m.id));
  const guards = picked.filter((id) => !alerting.has(id));
  const weightNumber = Number(weight);
  const weightValid = Number.isInteger(weightNumber) && weightNumber >= 1 && weightNumber <= 99;
  const minNumber = Number(minScore);
  const minValid = minScore.trim() === "" || (Number.isFinite(minNumber) && minNumber >= 0 && minNumber <= 1);
  // A minimum score is measured by a live evaluation scoring the environment's traffic.
  const needsScorer = minScore.trim() !== "" && !scoredBy;
  const ready = !!environment && weightValid && minValid && !needsScorer;
  return (
    <FormDialog
      onClose={onClose}
      title="Start a canary of the winner"
      description="A share of the environment's traffic goes to the winner beside what runs there now."
      onSubmit={() => {
        if (!ready) return;
        ship.mutate({
          id: optimizationId,
          ship: {
            action: "canary",
            environment,
            weight: weightNumber,
            ...(minScore.trim() ? { min_score: minNumber, min_score_evaluation_run_id: scoredBy } : {}),
            ...(guards.length ? { monitor_ids: guards } : {}),
          },
        });
      }}
      submitLabel={weightValid ? `Start canary at ${weightNumber}%` : "Start canary"}
      busy={ship.isPending}
      disabled={!ready}
      error={ship.error}
      errorTitle="Not started"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Environment
          {environments.isPending ? (
            <Skeleton className="h-8" />
          ) : (
            <SelectInput value={environment} onChange={(e) => setEnvironment(e.target.value)}>
              {(environments.data ?? []).map((env) => (
                <option key={env.id} value={env.slug}>
                  {env.name ?? env.slug}
                </option>
              ))}
            </SelectInput>
          )}
        </label>
        <TextField
          label="Share of traffic (%)"
          type="number"
          min={1}
          max={99}
          value={weight}
          onChange={(e) => setWeight(e.target.value)}
          error={weightValid ? undefined : "1 to 99"}
        />
      </div>
      <TextField
        label="Minimum score (optional)"
        inputMode="decimal"
        value={minScore}
        onChange={(e) => setMinScore(e.target.value)}
        placeholder="0.8"
        hint="Rolled back when the winner's live score falls under it (0 to 1)."
        error={minValid ? undefined : "A score from 0 to 1"}
      />
      {minScore.trim() !== "" && (
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Scored by
          {live.isPending ? (
            <Skeleton className="h-8" />
          ) : (
            <SelectInput value={scoredBy} onChange={(e) => setScoredBy(e.target.value)} aria-invalid={needsScorer}>
              <option value="">
                {live.data?.length ? "Pick a live evaluation" : "No live evaluation: start one under Evaluations"}
              </option>
              {(live.data ?? []).map((run) => (
                <option key={run.id} value={run.id}>
                  {run.name ?? run.id.slice(0, 8)}
                </option>
              ))}
            </SelectInput>
          )}
        </label>
      )}
      <Fieldset legend="Roll back if a monitor fires">
        {monitors.isPending ? (
          <Skeleton className="h-10" />
        ) : monitors.data?.length ? (
          <div className="max-h-40 overflow-auto" data-testid="ship-monitors">
            {monitors.data.map((m) => (
              <label
                key={m.id}
                className="flex min-w-0 items-start gap-2 rounded-md px-1 py-0.5 text-sm hover:bg-surface-muted"
              >
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0"
                  checked={guards.includes(m.id)}
                  disabled={alerting.has(m.id)}
                  onChange={(e) => setPicked(toggle(picked, m.id, e.target.checked))}
                />
                <span className="min-w-0 break-words">
                  {m.name}
                  {alerting.has(m.id) && (
                    <span className="text-xs text-danger"> · alerting now: it cannot fire again during the canary</span>
                  )}
                </span>
              </label>
            ))}
          </div>
        ) : (
          <p className="text-sm text-muted">No monitors in this project yet.</p>
        )}
      </Fieldset>
    </FormDialog>
  );
}
