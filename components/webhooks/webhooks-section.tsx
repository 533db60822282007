"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { EmptyState, ListCard, PlusIcon, TimeAgo } from "@/components/ui";
import { SubscriptionDialog } from "./subscription-dialog";
import { SubscriptionState } from "./subscription-state";
import { subscriptionPath } from "./webhook-paths";
import { WebhooksIcon } from "./webhooks-icon";

/** The project's webhook subscriptions: endpoint, events, state; each opens its deliveries. */
export function WebhooksSection() {
  const trpc = useTRPC();
  const subscriptions = useQuery(trpc.webhooks.list.queryOptions());
  const [creating, setCreating] = useState(false);

  const addButton = (
    <MemberButton variant="primary" onClick={() => setCreating(true)} viewerTitle="Viewers cannot add webhooks">
      <PlusIcon className="size-3.5" />
      New webhook
    </MemberButton>
  );

  return (
    <ListCard
      title="Subscriptions"
      labelledBy="webhooks-title"
      description="Each event is sent once per subscription, signed, retried on failure."
      actions={addButton}
      query={subscriptions}
      listLabel="Webhooks"
      errorTitle="Could not load webhooks"
      empty={
        <EmptyState
          icon={<WebhooksIcon />}
          title="No webhooks yet"
          description="Be told when an agent is committed or deployed: add an HTTPS endpoint and send it a test."
          action={addButton}
        />
      }
      renderRow={(s) => (
        <li key={s.id} className="flex flex-col gap-1 px-5 py-4" data-testid="webhook-row">
          <div className="flex flex-wrap items-center gap-2">
            <Link href={subscriptionPath(s.id)} className="font-medium break-words underline-offset-2 hover:underline">
              {s.name}
            </Link>
            <SubscriptionState subscription={s} />
          </div>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
            <span className="font-mono break-all">{s.data.url}</span>
            <span>
              {s.data.event_types?.length
                ? `${s.data.event_types.length} event type${s.data.event_types.length === 1 ? "" : "s"}`
                : "Every event"}
            </span>
            <span>
              Updated <TimeAgo iso={s.updated_at} />
            </span>
          </div>
        </li>
      )}
      after={<SubscriptionDialog open={creating} editing={null} onClose={() => setCreating(false)} />}
    />
  );
}
