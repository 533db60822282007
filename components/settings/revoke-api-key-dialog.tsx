"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
import { Button, Dialog, Notice, useToast } from "@/components/ui";
import { apiKeyLabel } from "./api-key-label";
import type { ApiKey } from "./types";

/** Confirms before revoking: a revoked key cannot be restored. */
export function RevokeApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: async (revoked) => {
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        toast({ title: "API key revoked", description: `${apiKeyLabel(revoked)} no longer works.` });
        close();
      },
    }),
  );

  function close() {
    revoke.reset();
    onClose();
  }

  return (
    <Dialog
      open={apiKey !== null}
      onClose={() => !revoke.isPending && close()}
      role="alertdialog"
      title="Revoke API key?"
      description={
        apiKey && (
          <>
            Requests that use <strong className="font-medium text-foreground">{apiKeyLabel(apiKey)}</strong> (
            <code className="font-mono text-xs">{apiKey.prefix}…</code>) will be rejected at once. This cannot be
            undone.
          </>
        )
      }
      footer={
        <>
          <Button onClick={close} disabled={revoke.isPending} data-autofocus>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={revoke.isPending}
            onClick={() => apiKey && revoke.mutate({ id: apiKey.id })}
          >
            Revoke key
          </Button>
        </>
      }
    >
      {revoke.error && (
        <Notice tone="danger" title="Could not revoke the key">
          {revoke.error.message}
        </Notice>
      )}
    </Dialog>
  );
}
