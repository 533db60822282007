"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc";
import { FormDialog, Input, Notice, Skeleton } from "@/components/ui";
import { comparePath, evaluationPath } from "./evaluation-paths";
import { AgentSelect, Check, EvaluatorChecklist, Fieldset, TestsetRevisionSelect, toggle } from "./evaluation-pickers";

/** The unsaved draft of the editor: run as it is, committed nowhere. */
export interface DraftChoice {
  name: string;
  agent: unknown;
}

type Revision = { id: string; version: string; message?: string | null };

/** An agent's revisions (its variant's history), newest first. */
function RevisionChoices({
  history,
  picked,
  onPick,
}: {
  history: Revision[];
  picked: string[];
  onPick: (ids: string[]) => void;
}) {
  return (
    <div className="max-h-48 overflow-auto">
      {history.map((r) => (
        <Check key={r.id} checked={picked.includes(r.id)} onChange={(on) => onPick(toggle(picked, r.id, on))}>
          v{r.version} <span className="text-muted">· {r.message || "No message"}</span>
        </Check>
      ))}
    </div>
  );
}

/**
 * Starts an evaluation: revisions of an agent (one or several, and the editor's unsaved draft
 * when there is one), a testset revision, evaluators and repeats. One run per revision; with one
 * run it opens the run, with several their comparison.
 */
export function RunEvaluationDialog({
  open,
  onClose,
  agent,
  draft,
}: {
  open: boolean;
  onClose: () => void;
  /** Fixed when opened from an agent's page; picked in the dialog otherwise. */
  agent?: { variantId: string; revisionId?: string };
  draft?: DraftChoice;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pickedAgent, setPickedAgent] = useState({ id: "", variantId: undefined as string | undefined });
  const [revisions, setRevisions] = useState<string[]>(agent?.revisionId ? [agent.revisionId] : []);
  const [withDraft, setWithDraft] = useState(!!draft);
  const [testsetRevision, setTestsetRevision] = useState("");
  const [evaluatorRevisions, setEvaluatorRevisions] = useState<string[]>([]);
  const [repeats, setRepeats] = useState(1);
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.evaluations.create.mutationOptions({
      onSuccess: async (runs) => {
        await queryClient.invalidateQueries({ queryKey: trpc.evaluations.list.queryKey() });
        onClose();
        router.push(runs.length === 1 ? evaluationPath(runs[0].id) : comparePath(runs.map((r) => r.id)));
      },
    }),
  );
  const variantId = agent?.variantId ?? pickedAgent.variantId;
  const history = useQuery({
    ...trpc.agents.history.queryOptions({ variantId: variantId ?? "", limit: 20 }),
    enabled: open && !!variantId,
  });
  // The oldest revision first: it is the baseline the others are compared with.
  const ordered = (history.data?.items ?? [])
    .filter((r) => revisions.includes(r.id))
    .map((r) => r.id)
    .reverse();
  const runs = revisions.length + (draft && withDraft ? 1 : 0);
  const ready = runs > 0 && testsetRevision && evaluatorRevisions.length > 0;

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Run an evaluation"
      description="Each revision runs over every testcase; each evaluator scores every output."
      size="lg"
      onSubmit={() => {
        if (!ready) return;
        create.mutate({
          name: name.trim() || undefined,
          testsetRevisionId: testsetRevision,
          revisionIds: ordered,
          drafts: draft && withDraft ? [draft] : [],
          evaluatorRevisionIds: evaluatorRevisions,
          repeats,
        });
      }}
      submitLabel={runs > 1 ? `Start ${runs} runs` : "Start evaluation"}
      busy={create.isPending}
      disabled={!ready}
      error={create.error}
      errorTitle="Not started"
      formClassName="flex flex-col gap-5"
    >
      {!agent && (
        <AgentSelect
          value={pickedAgent.id}
          onPick={(id, variant) => {
            setPickedAgent({ id, variantId: variant });
            setRevisions([]);
          }}
          enabled={open}
        />
      )}
      {variantId && (
        <Fieldset legend="Revisions">
          {draft && (
            <Check checked={withDraft} onChange={setWithDraft}>
              Unsaved draft <span className="text-muted">· runs as it is in the editor; nothing is committed</span>
            </Check>
          )}
          {history.isPending ? (
            <Skeleton className="h-16" />
          ) : history.isError ? (
            <Notice tone="danger">{history.error.message}</Notice>
          ) : (
            <RevisionChoices history={history.data.items} picked={revisions} onPick={setRevisions} />
          )}
        </Fieldset>
      )}
      <TestsetRevisionSelect value={testsetRevision} onChange={setTestsetRevision} enabled={open} />
      <EvaluatorChecklist picked={evaluatorRevisions} onPick={setEvaluatorRevisions} enabled={open} />
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Repeats
          <Input
            type="number"
            min={1}
            max={10}
            value={repeats}
            onChange={(e) => setRepeats(Math.max(1, Math.min(10, Number(e.target.value) || 1)))}
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Name (optional)
          <Input
            value={name}
            maxLength={500}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. shorter instructions"
          />
        </label>
      </div>
    </FormDialog>
  );
}
