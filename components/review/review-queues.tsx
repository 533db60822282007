"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc";
import { Badge, Card, EmptyState, Notice, Skeleton, TimeAgo } from "@/components/ui";
import { ReviewIcon } from "./review-icon";
import { reviewPath, type ReviewQueue } from "./types";

/** The annotation queues open to the visitor, with how far their share has got. */
export function ReviewQueues() {
  const trpc = useTRPC();
  const queues = useQuery(trpc.review.queues.queryOptions());

  return (
    <Card title="Your queues" labelledBy="review-queues-title">
      {queues.isPending ? (
        <ul role="status" aria-label="Loading queues" className="flex flex-col divide-y divide-line">
          {[0, 1, 2].map((i) => (
            <li key={i} className="px-5 py-4">
              <Skeleton className="h-5 w-64" />
              <Skeleton className="mt-2 h-2 w-full max-w-md" />
            </li>
          ))}
        </ul>
      ) : queues.isError ? (
        <div className="p-5">
          <Notice tone="danger" title="Could not load the queues">
            {queues.error.message}
          </Notice>
        </div>
      ) : queues.data.length === 0 ? (
        <EmptyState
          icon={<ReviewIcon />}
          title="Nothing to review"
          description="An evaluation with a human evaluator opens a queue here: you go through its cases one by one and score each."
        />
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-labelledby="review-queues-title">
          {queues.data.map((q) => (
            <QueueRow key={q.id} queue={q} />
          ))}
        </ul>
      )}
    </Card>
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
          Opened <TimeAgo iso={queue.createdAt} /> · evaluation {queue.runStatus}
        </span>
      </Link>
    </li>
  );
}
