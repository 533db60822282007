"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { EvaluatorChecklist, TestsetRevisionSelect } from "@/components/evaluations/evaluation-pickers";
import { useTRPC } from "@/components/trpc";
import { Badge, FormDialog, Notice, TextField } from "@/components/ui";
import { HUMAN_FEEDBACK_URI } from "@/shared/evaluator-uris";
import { RevisionSelect } from "./revision-select";
import { reviewPath } from "./types";

/**
 * Opens a review queue: every testcase of a testset revision, scored by people with the picked
 * evaluators (each used as a human one in this queue), run first through an agent's or a
 * prompt's revision when one is picked so people judge its output. Opens the queue when made.
 */
export function NewQueueDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [testsetRevision, setTestsetRevision] = useState("");
  const [revision, setRevision] = useState("");
  const [evaluators, setEvaluators] = useState<string[]>([]);
  const create = useMutation(
    trpc.review.create.mutationOptions({
      onSuccess: async ({ id }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.review.queues.queryKey() });
        onClose();
        router.push(reviewPath(id));
      },
    }),
  );
  const ready = name.trim() !== "" && testsetRevision !== "" && evaluators.length > 0;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="New review queue"
      description="People go through every testcase of a testset revision, or what a revision answers to each, and score it with the evaluators you pick."
      size="lg"
      onSubmit={() => {
        if (ready)
          create.mutate({
            name: name.trim(),
            testsetRevisionId: testsetRevision,
            revisionId: revision || undefined,
            evaluatorRevisionIds: evaluators,
          });
      }}
      submitLabel="Create queue"
      busy={create.isPending}
      disabled={!ready}
      error={create.error}
      errorTitle="Not created"
      formClassName="flex flex-col gap-5"
    >
      <TextField label="Name" value={name} required maxLength={500} onChange={(e) => setName(e.target.value)} />
      <TestsetRevisionSelect value={testsetRevision} onChange={setTestsetRevision} enabled={open} />
      <RevisionSelect value={revision} onChange={setRevision} enabled={open} />
      {revision ? (
        <Notice tone="info" title="Reviewers judge the revision's answers">
          Each testcase runs through the revision first, as an evaluation run does; reviewers see its inputs, the output
          and a link to its trace. A case can be scored once its output is there.
        </Notice>
      ) : (
        <Notice tone="info" title="Inputs only">
          This queue runs no agent or prompt: reviewers see each testcase as it is. Pick a revision under Run through to
          review what it answers.
        </Notice>
      )}
      <EvaluatorChecklist
        picked={evaluators}
        onPick={setEvaluators}
        enabled={open}
        label={(uri) => (uri === HUMAN_FEEDBACK_URI ? <Badge tone="accent">human</Badge> : null)}
      />
    </FormDialog>
  );
}
