"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useTRPC } from "@/components/trpc";
import { Button, Notice, QueryError, Skeleton } from "@/components/ui";

/**
 * Starts a simple evaluation of one or two revisions through the engine: a testset and the
 * evaluators to score with (the gate's preselected). Progress shows in the evidence above it.
 */
export function RunEvaluationForm({
  revisions,
  defaultTestsetId,
  defaultEvaluatorId,
  onStarted,
  onCancel,
}: {
  /** The revisions to evaluate, each with a label (`v3`) and whether it is picked to start with. */
  revisions: { id: string; label: string; picked: boolean }[];
  defaultTestsetId?: string;
  defaultEvaluatorId?: string;
  onStarted: () => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const choices = useQuery(trpc.deployGate.choices.queryOptions());
  const [testsetId, setTestsetId] = useState(defaultTestsetId ?? "");
  const [evaluatorIds, setEvaluatorIds] = useState<string[]>(defaultEvaluatorId ? [defaultEvaluatorId] : []);
  const [picked, setPicked] = useState(() => revisions.filter((r) => r.picked).map((r) => r.id));
  const run = useMutation(
    trpc.deployGate.runEvaluation.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.deployGate.evidence.pathKey() });
        onStarted();
      },
    }),
  );
  const testset = testsetId || choices.data?.testsets[0]?.id || "";

  if (choices.isPending) return <Skeleton className="h-32 w-full" />;
  if (choices.isError)
    return (
      <QueryError
        title="Could not load testsets and evaluators"
        error={choices.error}
        onRetry={() => choices.refetch()}
        retrying={choices.isFetching}
      />
    );
  const { testsets, evaluators } = choices.data;
  if (testsets.length === 0 || evaluators.length === 0)
    return (
      <Notice title="Nothing to evaluate with yet">
        An evaluation needs a testset and an evaluator. Create them on the Testsets and Evaluators pages, or through the
        API, then run one here.
      </Notice>
    );

  return (
    <form
      aria-label="Run an evaluation"
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface-muted/40 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        run.mutate({ revisionIds: picked, testsetId: testset, evaluatorIds });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${formId}-testset`} className="text-sm font-medium">
            Testset
          </label>
          <SelectInput id={`${formId}-testset`} value={testset} onChange={(e) => setTestsetId(e.target.value)}>
            {testsets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name || t.slug}
              </option>
            ))}
          </SelectInput>
          <span className="text-xs text-muted">Its latest revision is used.</span>
        </div>
        <fieldset className="flex min-w-0 flex-col gap-1.5">
          <legend className="mb-1.5 text-sm font-medium">Evaluators</legend>
          <div className="flex max-h-28 flex-col gap-1 overflow-y-auto">
            {evaluators.map((ev) => (
              <label key={ev.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={evaluatorIds.includes(ev.id)}
                  onChange={(e) =>
                    setEvaluatorIds((ids) => (e.target.checked ? [...ids, ev.id] : ids.filter((i) => i !== ev.id)))
                  }
                />
                <span className="truncate">{ev.name || ev.slug}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {revisions.length > 1 && (
        <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <legend className="sr-only">Revisions to evaluate</legend>
          {revisions.map((r) => (
            <label key={r.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={picked.includes(r.id)}
                onChange={(e) =>
                  setPicked((ids) => (e.target.checked ? [...ids, r.id] : ids.filter((i) => i !== r.id)))
                }
              />
              Evaluate <span className="font-mono">{r.label}</span>
            </label>
          ))}
        </fieldset>
      )}
      {run.error && (
        <Notice tone="danger" title="Could not start the evaluation">
          {run.error.message}
        </Notice>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="primary"
          loading={run.isPending}
          disabled={!testset || evaluatorIds.length === 0 || picked.length === 0}
        >
          Start evaluation
        </Button>
      </div>
    </form>
  );
}
