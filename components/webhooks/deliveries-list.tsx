"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { Button, ListCard, Notice, QueryError, Skeleton, TimeAgo } from "@/components/ui";
import { AttemptLine, DeliveryStatus } from "./delivery-result";
import type { DeliverySummary } from "./types";

type StatusFilter = "" | "pending" | "succeeded" | "failed";

const PENDING_POLL_MS = 3000;

/** The subscription's deliveries, newest first; each opens to every attempt and can be sent again. */
export function DeliveriesList({ subscriptionId, highlight }: { subscriptionId: string; highlight?: string }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<StatusFilter>("");
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ subscriptionId, status: status || undefined }),
    // The worker is still trying some: look again until every delivery has an outcome.
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === "pending") ? PENDING_POLL_MS : false),
  });
  return (
    <ListCard
      title="Deliveries"
      labelledBy="deliveries-title"
      description="Every event sent to this endpoint, with each attempt's status, duration and response."
      actions={
        <div className="flex items-center gap-2">
          <label htmlFor="delivery-status" className="text-sm">
            Status
          </label>
          <SelectInput id="delivery-status" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
            <option value="">Any</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending</option>
          </SelectInput>
        </div>
      }
      query={deliveries}
      listLabel="Deliveries"
      errorTitle="Could not load deliveries"
      skeletonRows={1}
      empty={
        <p className="px-5 py-6 text-sm text-muted">
          {status ? "No deliveries with this status." : "Nothing sent yet. Send a test to see one here."}
        </p>
      }
      renderRow={(d) => (
        // The delivery a test just made opens; the key remounts it open once the test answers.
        <DeliveryRow key={d.id === highlight ? `${d.id}:sent` : d.id} delivery={d} initiallyOpen={d.id === highlight} />
      )}
    />
  );
}

function DeliveryRow({ delivery, initiallyOpen }: { delivery: DeliverySummary; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const panelId = `delivery-${delivery.id}`;
  return (
    <li data-testid="delivery-row">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3 text-left text-sm hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-accent"
      >
        <DeliveryStatus status={delivery.status} />
        <span className="font-mono text-xs">{delivery.event_type}</span>
        <span className="text-xs text-muted">
          {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? "" : "s"}
          {delivery.last_status_code !== undefined && ` · last HTTP ${delivery.last_status_code}`}
        </span>
        {delivery.status === "pending" && delivery.next_attempt_at && (
          <span className="text-xs text-muted" data-testid="next-attempt">
            next attempt <TimeAgo iso={delivery.next_attempt_at} />
          </span>
        )}
        <span className="ml-auto text-xs text-muted">
          <TimeAgo iso={delivery.created_at} />
        </span>
      </button>
      {open && <DeliveryDetails id={delivery.id} panelId={panelId} />}
    </li>
  );
}

function DeliveryDetails({ id, panelId }: { id: string; panelId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCanEdit();
  const delivery = useQuery(trpc.webhooks.delivery.queryOptions({ id }));
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: (fresh) => {
        queryClient.setQueryData(trpc.webhooks.delivery.queryKey({ id }), fresh);
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
    }),
  );
  return (
    <div
      id={panelId}
      className="space-y-2 border-t border-line bg-surface-muted/40 px-5 py-3"
      data-testid="delivery-details"
    >
      {delivery.isPending ? (
        <Skeleton className="h-16" />
      ) : delivery.isError ? (
        <QueryError
          title="Could not load this delivery"
          error={delivery.error}
          onRetry={() => delivery.refetch()}
          retrying={delivery.isFetching}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
            <span>
              Delivery <code className="font-mono">{delivery.data.id}</code> to{" "}
              <span className="font-mono break-all">{delivery.data.url}</span>
            </span>
            <Button
              size="sm"
              onClick={() => redeliver.mutate({ id })}
              loading={redeliver.isPending}
              disabled={!canEdit}
            >
              Redeliver
            </Button>
          </div>
          {redeliver.error && (
            <Notice tone="danger" title="Not sent again">
              {redeliver.error.message}
            </Notice>
          )}
          <ol className="divide-y divide-line rounded-md border border-line bg-surface" aria-label="Attempts">
            {delivery.data.attempts?.map((a) => (
              <AttemptLine key={a.number} attempt={a} />
            ))}
          </ol>
          <details className="text-xs">
            <summary className="cursor-pointer text-muted">Body sent</summary>
            <pre className="mt-1 max-h-48 overflow-auto rounded-md bg-surface px-2 py-1.5 font-mono whitespace-pre-wrap break-words">
              {JSON.stringify(delivery.data.payload, null, 2)}
            </pre>
          </details>
        </>
      )}
    </div>
  );
}
