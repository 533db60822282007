"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Badge, EmptyState, ListCard, PlusIcon, Skeleton, TimeAgo } from "@/components/ui";
import { NewQueueDialog } from "./new-queue-dialog";
import { ReviewIcon } from "./review-icon";
import { revisionLabel, reviewPath, type ReviewQueue } from "./types";

/** The annotation queues open to the visitor, with how far their share has got. */
export function ReviewQueues() {
  const trpc = useTRPC();
  const queues = useQuery(trpc.review.queues.queryOptions());
  const [creating, setCreating] = useState(false);
  const newButton = (
    <MemberButton variant="primary" onClick={() => setCreating(true)} viewerTitle="Viewers cannot open review queues">
      <PlusIcon className="size-3.5" />
      New queue
    </MemberButton>
  );

  return (
    <ListCard
      title="Your queues"
      labelledBy="review-queues-title"
      actions={newButton}
      query={queues}
      listLabel="Your queues"
      errorTitle="Could not load the queues"
      pending={
        <ul role="status" aria-label="Loading queues" className="flex flex-col divide-y divide-line">
          {[0, 1, 2].map((i) => (
            <li key={i} className="px-5 py-4">
              <Skeleton className="h-5 w-64" />
              <Skeleton className="mt-2 h-2 w-full max-w-md" />
            </li>
          ))}
        </ul>
      }
      empty={
        <EmptyState
          icon={<ReviewIcon />}
          title="Nothing to review"
          description="A queue puts a testset's cases, or what an agent or prompt answers to them, in front of people, who score each one. Open one with New queue (a Human feedback evaluator, under Evaluators, is the usual scorer), or run an evaluation with a human evaluator."
          action={newButton}
        />
      }
      renderRow={(q) => <QueueRow key={q.id} queue={q} />}
      after={<NewQueueDialog open={creating} onClose={() => setCreating(false)} />}
    />
  );
}

function QueueRow({ queue }: { queue: ReviewQueue }) {
  const share = queue.total ? queue.done / queue.total : 0;
  const complete = queue.total > 0 && queue.done === queue.total;
  return (
    <li>
      <Link
        href={reviewPath(queue.id)}
        className="flex flex-col gap-2 px-5 py-4 hover:bg-surface-muted/60 focus-visible:bg-surface-muted/60 focus-visible:outline-none"
      >
        <span className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 truncate text-sm font-medium">{queue.name ?? "Unnamed evaluation"}</span>
          {complete ? (
            <Badge tone="success" dot>
              done
            </Badge>
          ) : (
            <Badge tone="accent" dot>
              {queue.total - queue.done} to review
            </Badge>
          )}
        </span>
        <span className="flex items-center gap-3">
          <span
            className="h-1.5 w-full max-w-md overflow-hidden rounded-full bg-surface-muted"
            role="progressbar"
            aria-label={`${queue.name ?? "Queue"} progress`}
            aria-valuemin={0}
            aria-valuemax={queue.total}
            aria-valuenow={queue.done}
          >
            <span className="block h-full rounded-full bg-accent" style={{ width: `${share * 100}%` }} />
          </span>
          <span className="shrink-0 text-xs text-muted tabular-nums">
            {queue.done} of {queue.total}
          </span>
        </span>
        <span className="text-xs text-muted">
          Opened <TimeAgo iso={queue.createdAt} /> ·{" "}
          {queue.revision ? `outputs of ${revisionLabel(queue.revision)}` : "inputs only"} · evaluation{" "}
          {queue.runStatus}
        </span>
      </Link>
    </li>
  );
}
