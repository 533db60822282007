"use client";

import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { Button } from "@/components/ui";
import { RunEvaluationDialog, type DraftChoice } from "./run-dialog";

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
  const canEdit = useCanEdit();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        onClick={() => setOpen(true)}
        disabled={!canEdit}
        title={canEdit ? "Run an evaluation" : "Viewers cannot run evaluations"}
      >
        Evaluate
      </Button>
      <RunEvaluationDialog open={open} onClose={() => setOpen(false)} agent={{ variantId, revisionId }} draft={draft} />
    </>
  );
}
