"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Card, EmptyState, KeyIcon, PlusIcon, QueryView } from "@/components/ui";
import { ApiKeysSkeleton } from "./api-keys-skeleton";
import { ApiKeysTable } from "./api-keys-table";
import { CreateApiKeyDialog } from "./create-api-key-dialog";
import { RevokeApiKeyDialog } from "./revoke-api-key-dialog";
import type { ApiKey } from "./types";

export function ApiKeysSection() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const createButton = (
    <MemberButton variant="primary" onClick={() => setCreating(true)} viewerTitle="Viewers cannot create keys">
      <PlusIcon className="size-3.5" />
      Create key
    </MemberButton>
  );

  return (
    <Card
      title="API keys"
      labelledBy="api-keys-title"
      description={
        <>
          Keys authenticate calls to the REST API with{" "}
          <code className="font-mono text-xs text-foreground">Authorization: ApiKey &lt;key&gt;</code>. They are stored
          hashed: a secret is shown only once, when its key is created.
        </>
      }
      actions={createButton}
    >
      <QueryView
        query={keys}
        pending={<ApiKeysSkeleton />}
        errorTitle="Could not load API keys"
        errorClassName="p-5"
        isEmpty={(rows) => rows.length === 0}
        empty={
          <EmptyState
            icon={<KeyIcon />}
            title="No API keys yet"
            description="Create a key to call the API from scripts, CI or your own services."
            action={createButton}
          />
        }
      >
        {(rows) => <ApiKeysTable keys={rows} onRevoke={setRevoking} />}
      </QueryView>
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeApiKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}
