"use client";

import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { Button, type ButtonVariant } from "@/components/ui";
import { ImproveDialog } from "./improve-dialog";

/** "Improve" on a revision: the optimization form with this revision as its base. */
export function ImproveButton({
  revisionId,
  label,
  variant = "secondary",
}: {
  revisionId: string;
  /** The revision as people know it ("Support bot v3"), shown in the form. */
  label: string;
  variant?: ButtonVariant;
}) {
  const canEdit = useCanEdit();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant={variant}
        onClick={() => setOpen(true)}
        disabled={!canEdit}
        title={canEdit ? undefined : "Viewers cannot start an optimization"}
      >
        Improve
      </Button>
      {open && <ImproveDialog onClose={() => setOpen(false)} base={{ revisionId, label }} />}
    </>
  );
}
