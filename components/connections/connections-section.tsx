"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, EmptyState, KeyIcon, ListCard, PlusIcon, TimeAgo } from "@/components/ui";
import { PROVIDERS } from "@/shared/providers";
import { ConnectionDialog } from "./connection-dialog";
import { ConnectionTestButton } from "./connection-test-button";
import type { Connection } from "./types";

const providerLabel = (kind: string) =>
  kind === "custom" ? "Custom provider" : ((PROVIDERS as Record<string, string>)[kind] ?? kind);

/** The project's provider keys and custom providers: masked, editable, testable. */
export function ConnectionsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connections = useQuery(trpc.connections.list.queryOptions());
  const canEdit = useCanEdit();
  const [dialog, setDialog] = useState<{ editing: Connection | null } | null>(null);
  const remove = useMutation(
    trpc.connections.delete.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.connections.providers.queryKey() }),
        ]),
    }),
  );

  const addButton = (
    <MemberButton
      variant="primary"
      onClick={() => setDialog({ editing: null })}
      viewerTitle="Viewers cannot add connections"
    >
      <PlusIcon className="size-3.5" />
      Add connection
    </MemberButton>
  );

  return (
    <ListCard
      title="Model connections"
      labelledBy="connections-title"
      description="The credentials agents run with. A run uses the project's connection for its provider, else the server operator's key."
      actions={addButton}
      query={connections}
      listLabel="Connections"
      errorTitle="Could not load connections"
      empty={
        <EmptyState
          icon={<KeyIcon />}
          title="No connections yet"
          description="Add a provider key, or a custom OpenAI-compatible provider such as a local model server."
          action={addButton}
        />
      }
      renderRow={(c) => (
        <li
          key={c.id}
          className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between"
          data-testid="connection-row"
        >
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium break-words">{c.header.name}</span>
              <Badge>{providerLabel(c.secret.data.kind)}</Badge>
            </div>
            <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
              <span>
                Key <code className="font-mono">{c.secret.data.provider.key_hint ?? "none"}</code>
              </span>
              {c.secret.data.provider.url && <span className="break-all">{c.secret.data.provider.url}</span>}
              {"models" in c.secret.data && (
                <span>Models: {(c.secret.data.models as Array<{ slug: string }>).map((m) => m.slug).join(", ")}</span>
              )}
              <span>
                Updated <TimeAgo iso={c.updated_at} />
              </span>
            </div>
            <ConnectionTestButton id={c.id} disabled={!canEdit} />
          </div>
          <div className="flex shrink-0 gap-2">
            <Button
              size="sm"
              onClick={() => setDialog({ editing: c })}
              disabled={!canEdit}
              aria-label={`Edit ${c.header.name}`}
            >
              Edit
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => remove.mutate({ id: c.id })}
              disabled={!canEdit}
              loading={remove.isPending && remove.variables?.id === c.id}
              aria-label={`Delete ${c.header.name}`}
            >
              Delete
            </Button>
          </div>
        </li>
      )}
      after={
        <ConnectionDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      }
    />
  );
}
