"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice } from "@/components/ui";
import type { Subscription } from "./types";
import { webhooksPath } from "./webhook-paths";

/** Confirms before deleting: the subscription and its delivery log go, and cannot come back. */
export function DeleteSubscriptionDialog({
  subscription,
  open,
  onClose,
}: {
  subscription: Subscription;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
        router.push(webhooksPath());
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onClose={() => !remove.isPending && onClose()}
      role="alertdialog"
      title={`Delete ${subscription.name}?`}
      description="No more events are sent to this endpoint, and its delivery log is deleted with it. This cannot be undone."
      footer={
        <>
          <Button onClick={onClose} disabled={remove.isPending} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate({ id: subscription.id })}>
            Delete webhook
          </Button>
        </>
      }
    >
      {remove.error && (
        <Notice tone="danger" title="Not deleted">
          {remove.error.message}
        </Notice>
      )}
    </Dialog>
  );
}
