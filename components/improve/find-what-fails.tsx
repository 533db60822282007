"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import type { TraceFilters } from "@/components/traces/trace-paths";
import { useTRPC } from "@/components/trpc";
import { FormDialog, TextField, type ButtonSize, type ButtonVariant } from "@/components/ui";
import { triagePath } from "./improve-paths";
import type { TriageEvidence } from "./types";

/**
 * "Find what fails": starts a triage over the evidence where it stands (the traces of a filter or
 * a chart's window, a monitor's alert, an evaluation run's low cells) and opens its page. The
 * dialog asks for the grouping model: without one the server groups by what it knows and says so.
 */
export function FindWhatFailsButton({
  evidence,
  traces,
  describe,
  variant = "secondary",
  size = "md",
}: {
  /** The evidence as the API takes it; or `traces`, the traces list's filters the server turns into one. */
  evidence?: TriageEvidence;
  traces?: Omit<TraceFilters, "cursor">;
  /** What is examined, in words, shown in the dialog ("errors of the last 7 days"). */
  describe: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <MemberButton
        variant={variant}
        size={size}
        onClick={() => setOpen(true)}
        viewerTitle="Viewers cannot start a triage"
      >
        Find what fails
      </MemberButton>
      {open && (
        <FindWhatFailsDialog evidence={evidence} traces={traces} describe={describe} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function FindWhatFailsDialog({
  evidence,
  traces,
  describe,
  onClose,
}: {
  evidence?: TriageEvidence;
  traces?: Omit<TraceFilters, "cursor">;
  describe: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [model, setModel] = useState("");
  const [examples, setExamples] = useState("5");
  const [budget, setBudget] = useState("");
  const start = useMutation(
    trpc.improve.startTriage.mutationOptions({
      onSuccess: async (triage) => {
        await queryClient.invalidateQueries({ queryKey: trpc.improve.triages.queryKey() });
        router.push(triagePath(triage.id));
      },
    }),
  );
  const examplesNumber = Number(examples);
  const examplesValid = Number.isInteger(examplesNumber) && examplesNumber >= 1 && examplesNumber <= 20;
  const budgetValid = budget.trim() === "" || (Number.isFinite(Number(budget)) && Number(budget) > 0);

  return (
    <FormDialog
      onClose={onClose}
      title="Find what fails"
      description={`Groups the failures among ${describe} into named failure modes, each with a count and examples.`}
      onSubmit={() => {
        if (!examplesValid || !budgetValid) return;
        start.mutate({
          ...(traces ? { traces } : { evidence }),
          model: model.trim() || undefined,
          max_examples_per_mode: examplesNumber,
          budget_usd: budget.trim() || undefined,
        });
      }}
      submitLabel="Start triage"
      busy={start.isPending}
      disabled={!examplesValid || !budgetValid}
      error={start.error}
      errorTitle="Not started"
    >
      <TextField
        label="Model (optional)"
        value={model}
        onChange={(e) => setModel(e.target.value)}
        placeholder="openai/gpt-5-mini"
        hint="Names and describes the failure modes. Without one they are grouped by evaluator, error class, tool and stop reason."
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Examples per mode"
          type="number"
          min={1}
          max={20}
          value={examples}
          onChange={(e) => setExamples(e.target.value)}
          error={examplesValid ? undefined : "A whole number from 1 to 20"}
        />
        <TextField
          label="Spend cap (USD, optional)"
          inputMode="decimal"
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
          placeholder="0.50"
          error={budgetValid ? undefined : "An amount above 0"}
        />
      </div>
    </FormDialog>
  );
}
