"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice, useToast } from "@/components/ui";

/** Confirms, then commits an old revision's rows as the testset's newest revision. */
export function RestoreTestsetDialog({
  revision,
  nextVersion,
  onClose,
}: {
  revision: { id: string; version: string } | null;
  nextVersion: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const restore = useMutation(
    trpc.testsets.restore.mutationOptions({
      onSuccess: async (restored) => {
        await queryClient.invalidateQueries({ queryKey: trpc.testsets.pathKey() });
        toast({ title: `Restored v${revision?.version} as v${restored.version}` });
        restore.reset();
        onClose();
      },
    }),
  );
  return (
    <Dialog
      open={revision !== null}
      onClose={() => !restore.isPending && (restore.reset(), onClose())}
      role="alertdialog"
      title={revision ? `Restore v${revision.version}?` : "Restore"}
      description={
        revision && (
          <>
            Commits the rows of <strong className="font-medium text-foreground">v{revision.version}</strong> as{" "}
            <strong className="font-medium text-foreground">v{nextVersion}</strong>. History is kept: nothing is
            deleted.
          </>
        )
      }
      footer={
        <>
          <Button onClick={() => (restore.reset(), onClose())} disabled={restore.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            loading={restore.isPending}
            onClick={() => revision && restore.mutate({ revisionId: revision.id })}
            data-autofocus
          >
            Restore as v{nextVersion}
          </Button>
        </>
      }
    >
      {restore.error && (
        <Notice tone="danger" title="Could not restore">
          {restore.error.message}
        </Notice>
      )}
    </Dialog>
  );
}
