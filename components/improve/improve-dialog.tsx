"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import {
  AgentSelect,
  Check,
  EvaluatorChecklist,
  Fieldset,
  TestsetRevisionSelect,
  toggle,
} from "@/components/evaluations/evaluation-pickers";
import { useTRPC } from "@/components/trpc";
import { FormDialog, Skeleton, TextField } from "@/components/ui";
import { STRATEGY_LABELS } from "./describe-evidence";
import { optimizationPath } from "./improve-paths";
import type { Strategy } from "./types";

const STRATEGY_HINTS: Record<Strategy, string> = {
  reflective: "the model rewrites the instructions from the failures and their evaluator feedback",
  few_shot: "demonstrations chosen from passing cases",
  parameter_sweep: "models and sampling settings within the project's allowlist",
};
const ALL_STRATEGIES = Object.keys(STRATEGY_LABELS) as Strategy[];

const whole = (text: string, min: number, max: number) => {
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max;
};

/**
 * Starts an optimization: a base revision (fixed when opened from a revision; an agent's revision
 * picked here otherwise), a testset, the evaluators whose mean score is optimized, the strategies,
 * the optimizer's model, rounds and a spend cap. Opens the report.
 */
export function ImproveDialog({
  onClose,
  base,
  failureModeId,
  testsetRevisionId,
}: {
  onClose: () => void;
  base?: { revisionId: string; label: string };
  failureModeId?: string;
  /** Picked at first: the testset just made from the failure mode. */
  testsetRevisionId?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pickedAgent, setPickedAgent] = useState({ id: "", variantId: undefined as string | undefined });
  const [revisionId, setRevisionId] = useState(base?.revisionId ?? "");
  const [testsetRevision, setTestsetRevision] = useState(testsetRevisionId ?? "");
  const [evaluators, setEvaluators] = useState<string[]>([]);
  const [strategies, setStrategies] = useState<string[]>(ALL_STRATEGIES);
  const [model, setModel] = useState("");
  const [rounds, setRounds] = useState("3");
  const [candidates, setCandidates] = useState("3");
  const [spendCap, setSpendCap] = useState("2.00");

  const variantId = pickedAgent.variantId;
  const history = useQuery({
    ...trpc.agents.history.queryOptions({ variantId: variantId ?? "", limit: 50 }),
    enabled: !base && !!variantId,
  });

  const start = useMutation(
    trpc.improve.startOptimization.mutationOptions({
      onSuccess: async (optimization) => {
        await queryClient.invalidateQueries({ queryKey: trpc.improve.optimizations.queryKey() });
        router.push(optimizationPath(optimization.id));
      },
    }),
  );

  const needsModel = strategies.includes("reflective") && model.trim() === "";
  const capValid = Number.isFinite(Number(spendCap)) && Number(spendCap) > 0;
  const roundsValid = whole(rounds, 1, 10);
  const candidatesValid = whole(candidates, 1, 10);
  const ready =
    !!revisionId &&
    !!testsetRevision &&
    evaluators.length > 0 &&
    strategies.length > 0 &&
    !needsModel &&
    capValid &&
    roundsValid &&
    candidatesValid;

  return (
    <FormDialog
      onClose={onClose}
      title="Improve"
      description="Generates candidate revisions, each a commit on its own improve/ variant, scores them on part of the testset and measures the best on the part it never saw."
      size="lg"
      onSubmit={() => {
        if (!ready) return;
        start.mutate({
          base_revision_id: revisionId,
          testset_revision_id: testsetRevision,
          evaluator_revision_ids: evaluators,
          strategies: strategies as Strategy[],
          model: model.trim() || undefined,
          rounds: Number(rounds),
          candidates_per_round: Number(candidates),
          spend_cap_usd: String(Number(spendCap)),
          failure_mode_id: failureModeId,
        });
      }}
      submitLabel="Start optimization"
      busy={start.isPending}
      disabled={!ready}
      error={start.error}
      errorTitle="Not started"
      formClassName="flex flex-col gap-5"
    >
      {base ? (
        <p className="text-sm">
          <span className="font-medium">Base</span> <span className="text-muted">{base.label}</span>
        </p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <AgentSelect
            value={pickedAgent.id}
            onPick={(id, variant) => {
              setPickedAgent({ id, variantId: variant });
              setRevisionId("");
            }}
            enabled
          />
          <label className="flex flex-col gap-1.5 text-sm font-medium">
            Base revision
            {variantId && history.isPending ? (
              <Skeleton className="h-8" />
            ) : (
              <SelectInput value={revisionId} onChange={(e) => setRevisionId(e.target.value)} disabled={!variantId}>
                <option value="">{variantId ? "Pick a revision" : "Pick an agent first"}</option>
                {(history.data?.items ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    v{r.version}
                    {r.message ? ` · ${r.message}` : ""}
                  </option>
                ))}
              </SelectInput>
            )}
          </label>
        </div>
      )}
      <TestsetRevisionSelect value={testsetRevision} onChange={setTestsetRevision} enabled />
      <EvaluatorChecklist picked={evaluators} onPick={setEvaluators} enabled />
      <Fieldset legend="Strategies">
        {ALL_STRATEGIES.map((s) => (
          <Check key={s} checked={strategies.includes(s)} onChange={(on) => setStrategies(toggle(strategies, s, on))}>
            {STRATEGY_LABELS[s]} <span className="text-muted">· {STRATEGY_HINTS[s]}</span>
          </Check>
        ))}
      </Fieldset>
      <TextField
        label="Optimizer model"
        value={model}
        onChange={(e) => setModel(e.target.value)}
        placeholder="openai/gpt-5-mini"
        hint="The model that writes the candidates; the reflective rewrite needs one."
        error={needsModel ? "The reflective rewrite needs a model" : undefined}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Rounds"
          type="number"
          min={1}
          max={10}
          value={rounds}
          onChange={(e) => setRounds(e.target.value)}
          error={roundsValid ? undefined : "1 to 10"}
        />
        <TextField
          label="Candidates per round"
          type="number"
          min={1}
          max={10}
          value={candidates}
          onChange={(e) => setCandidates(e.target.value)}
          error={candidatesValid ? undefined : "1 to 10"}
        />
        <TextField
          label="Spend cap (USD)"
          inputMode="decimal"
          value={spendCap}
          onChange={(e) => setSpendCap(e.target.value)}
          error={capValid ? undefined : "An amount above 0"}
          hint="It stops with the best so far when reached."
        />
      </div>
    </FormDialog>
  );
}
