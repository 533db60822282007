"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, Card, Notice, Skeleton } from "@/components/ui";
import { DeleteSubscriptionDialog } from "./delete-subscription-dialog";
import { DeliveriesList } from "./deliveries-list";
import { SubscriptionDialog } from "./subscription-dialog";
import { SubscriptionState } from "./subscription-state";
import { webhooksPath } from "./webhook-paths";

/** `/webhooks/[id]`: one subscription, its actions (edit, stop/start, send test) and its deliveries. */
export function SubscriptionView({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const subscription = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const setActive = useMutation(trpc.webhooks.setActive.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(trpc.webhooks.test.mutationOptions({ onSuccess: refresh }));

  if (subscription.isPending) return <Skeleton className="h-48" />;
  if (subscription.isError) {
    return (
      <Notice tone="danger" title="Could not show this webhook">
        {subscription.error.data?.httpStatus === 404
          ? "It does not exist in this project, or it was deleted."
          : subscription.error.message}{" "}
        <Link href={webhooksPath()} className="underline">
          All webhooks
        </Link>
      </Notice>
    );
  }
  const s = subscription.data;
  const active = s.flags.is_active;
  return (
    <div className="space-y-6">
      <Card title={s.name} labelledBy="subscription-title" description={s.description}>
        {/* Under the title, not in the header, so the buttons wrap on a phone. */}
        <div className="flex flex-wrap gap-2 px-5 pt-4">
          <Button onClick={() => test.mutate({ id })} loading={test.isPending} disabled={!canEdit}>
            Send test
          </Button>
          <Button
            onClick={() => setActive.mutate({ id, active: !active })}
            loading={setActive.isPending}
            disabled={!canEdit}
          >
            {active ? "Stop" : "Start"}
          </Button>
          <Button variant="ghost" onClick={() => setDeleting(true)} disabled={!canEdit}>
            Delete
          </Button>
          <Button variant="primary" onClick={() => setEditing(true)} disabled={!canEdit}>
            Edit
          </Button>
        </div>
        <dl className="grid gap-x-6 gap-y-3 px-5 py-4 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
          <dt className="text-muted">State</dt>
          <dd data-testid="subscription-state">
            <SubscriptionState subscription={s} />
          </dd>
          <dt className="text-muted">Endpoint</dt>
          <dd className="font-mono text-xs break-all">{s.data.url}</dd>
          <dt className="text-muted">Events</dt>
          <dd className="font-mono text-xs break-words">
            {s.data.event_types?.length ? s.data.event_types.join(", ") : "Every event"}
          </dd>
          <dt className="text-muted">Authentication</dt>
          <dd>{s.data.auth_mode === "authorization" ? "Bearer token" : "Signature header (X-Service-Signature)"}</dd>
        </dl>
        {(test.error || setActive.error) && (
          <div className="px-5 pb-4">
            <Notice tone="danger" title="That did not work">
              {(test.error ?? setActive.error)?.message}
            </Notice>
          </div>
        )}
      </Card>
      <DeliveriesList subscriptionId={id} highlight={test.data?.id} />
      <SubscriptionDialog open={editing} editing={s} onClose={() => setEditing(false)} />
      <DeleteSubscriptionDialog subscription={s} open={deleting} onClose={() => setDeleting(false)} />
    </div>
  );
}
