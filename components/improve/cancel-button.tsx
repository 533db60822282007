"use client";

import { Button } from "@/components/ui";

/** A running triage's or optimization's Cancel; the report beside it shows the mutation's error. */
export function CancelButton({
  cancel,
  id,
  canEdit,
}: {
  cancel: { mutate(input: { id: string }): void; isPending: boolean };
  id: string;
  canEdit: boolean;
}) {
  return (
    <Button
      size="sm"
      variant="danger"
      className="ml-auto"
      onClick={() => cancel.mutate({ id })}
      loading={cancel.isPending}
      disabled={!canEdit}
    >
      Cancel
    </Button>
  );
}
