"use client";

import { useState } from "react";
import { RunEvaluationDialog, type DraftChoice } from "./run-dialog";
import { MemberButton } from "@/components/shell/member-button";

/** The agent page's entry: evaluate this variant's revisions, and the editor's draft when it has one. */
export function EvaluateButton({
  variantId,
  revisionId,
  draft,
}: {
  variantId: string;
  revisionId?: string;
  draft?: DraftChoice;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <MemberButton
        size="sm"
        onClick={() => setOpen(true)}
        title="Run an evaluation"
        viewerTitle="Viewers cannot run evaluations"
      >
        Evaluate
      </MemberButton>
      <RunEvaluationDialog open={open} onClose={() => setOpen(false)} agent={{ variantId, revisionId }} draft={draft} />
    </>
  );
}
