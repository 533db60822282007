"use client";

import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import { type ButtonVariant } from "@/components/ui";
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
  const [open, setOpen] = useState(false);
  return (
    <>
      <MemberButton variant={variant} onClick={() => setOpen(true)} viewerTitle="Viewers cannot start an optimization">
        Improve
      </MemberButton>
      {open && <ImproveDialog onClose={() => setOpen(false)} base={{ revisionId, label }} />}
    </>
  );
}
