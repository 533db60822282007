"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice, useToast } from "@/components/ui";
import { versionLabel, type AgentRevision } from "./types";

export type RestoredRevision = { id: string; version: string };

/** Confirms, then commits the revision's payload as the variant's newest revision. */
export function RestoreDialog({
  revision,
  latestVersion,
  onClose,
  onRestored,
}: {
  revision: Pick<AgentRevision, "id" | "version"> | null;
  /** The variant's head, to say which version the restore will create. */
  latestVersion?: string;
  onClose: () => void;
  onRestored?: (restored: RestoredRevision) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const restore = useMutation(
    trpc.agents.restore.mutationOptions({
      onSuccess: async (restored) => {
        // History, the editor's head, the agents list: everything about agents may have moved.
        await queryClient.invalidateQueries({ queryKey: trpc.agents.pathKey() });
        toast({
          title: `Restored ${revision ? versionLabel(revision) : "revision"} as ${versionLabel(restored)}`,
          description: restored.message ?? undefined,
        });
        restore.reset();
        onRestored?.(restored);
        onClose();
      },
    }),
  );
  const next = latestVersion ? `v${Number(latestVersion) + 1}` : "a new version";
  return (
    <Dialog
      open={revision !== null}
      onClose={() => !restore.isPending && (restore.reset(), onClose())}
      role="alertdialog"
      title={revision ? `Restore ${versionLabel(revision)}?` : "Restore"}
      description={
        revision && (
          <>
            Commits the template of <strong className="font-medium text-foreground">{versionLabel(revision)}</strong> as{" "}
            <strong className="font-medium text-foreground">{next}</strong>. History is kept: nothing is deleted, and
            what environments run does not change until you deploy.
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
            Restore as {next}
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
