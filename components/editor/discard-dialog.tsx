"use client";

import { Button, Dialog } from "@/components/ui";

/** Confirms throwing the draft away: it cannot be brought back. */
export function DiscardDialog({
  open,
  version,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  version: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      role="alertdialog"
      title="Discard your changes?"
      description={`The editor goes back to version ${version} and the draft saved in this browser is deleted. This cannot be undone.`}
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>
            Keep editing
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            Discard changes
          </Button>
        </>
      }
    />
  );
}
