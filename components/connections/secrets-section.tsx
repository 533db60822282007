"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Button, EmptyState, KeyIcon, ListCard, PlusIcon, TimeAgo } from "@/components/ui";
import { SecretDialog } from "./secret-dialog";
import type { PlainSecret } from "./types";

/** The project's plain secrets: tokens tools send (code tools' `secrets`, MCP header refs), never a model key. */
export function SecretsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const secrets = useQuery(trpc.connections.secrets.queryOptions());
  const canEdit = useCanEdit();
  const [dialog, setDialog] = useState<{ rotating: PlainSecret | null } | null>(null);
  const remove = useMutation(
    trpc.connections.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.connections.secrets.queryKey() }),
    }),
  );

  const addButton = (
    <MemberButton
      variant="primary"
      onClick={() => setDialog({ rotating: null })}
      viewerTitle="Viewers cannot add secrets"
    >
      <PlusIcon className="size-3.5" />
      Add secret
    </MemberButton>
  );

  return (
    <ListCard
      title="Secrets"
      labelledBy="secrets-title"
      description="Tokens your tools send: a code tool's secrets and an MCP server's header secrets name them. A secret is never used as a model key."
      actions={addButton}
      query={secrets}
      listLabel="Secrets"
      errorTitle="Could not load secrets"
      skeletonRows={1}
      empty={
        <EmptyState
          icon={<KeyIcon />}
          title="No secrets yet"
          description="Add an API token a code tool or an MCP server needs."
          action={addButton}
        />
      }
      renderRow={(s) => (
        <li
          key={s.id}
          className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between"
          data-testid="secret-row"
        >
          <div className="min-w-0 space-y-1">
            <span className="font-medium break-words">{s.header.name}</span>
            <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
              <span>
                Slug <code className="font-mono">{s.slug}</code>
              </span>
              <span>
                Value <code className="font-mono">{s.secret.data.value_hint ?? "hidden"}</code>
              </span>
              <span>
                Updated <TimeAgo iso={s.updated_at} />
              </span>
            </div>
          </div>
          <div className="flex shrink-0 gap-2">
            <Button
              size="sm"
              onClick={() => setDialog({ rotating: s })}
              disabled={!canEdit}
              aria-label={`Rotate ${s.header.name}`}
            >
              Rotate
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => remove.mutate({ id: s.id })}
              disabled={!canEdit}
              loading={remove.isPending && remove.variables?.id === s.id}
              aria-label={`Delete ${s.header.name}`}
            >
              Delete
            </Button>
          </div>
        </li>
      )}
      after={
        <SecretDialog open={dialog !== null} rotating={dialog?.rotating ?? null} onClose={() => setDialog(null)} />
      }
    />
  );
}
