"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc";
import { Badge, EmptyState, Notice, Skeleton } from "@/components/ui";
import { CaseDetails } from "./case-details";
import { CaseList } from "./case-list";
import { ReviewForm } from "./review-form";
import { ReviewIcon } from "./review-icon";
import { ReviewProgress } from "./review-progress";
import { ReviewShortcuts } from "./review-shortcuts";
import { isAnnotated, outputPending, revisionLabel, type ReviewSessionData } from "./types";
import { useReviewSession } from "./use-review-session";

/**
 * One person going through their share of a queue, one case at a time (the state and keys:
 * `use-review-session.ts`).
 */
export function ReviewSession({ queueId }: { queueId: string }) {
  const trpc = useTRPC();
  // While the queue's revision is still answering some cases, their outputs are fetched as they land.
  const session = useQuery({
    ...trpc.review.items.queryOptions({ queueId }),
    refetchInterval: (query) => (query.state.data?.items.some(outputPending) ? 2_000 : false),
  });

  return session.isPending ? (
    <div role="status" aria-label="Loading the queue" className="flex flex-col gap-4">
      <Skeleton className="h-8 w-72" />
      <Skeleton className="h-96 w-full rounded-xl" />
    </div>
  ) : session.isError ? (
    <Notice tone="danger" title="Could not open this queue">
      {session.error.message}{" "}
      <Link href="/review" className="text-accent hover:underline">
        Back to your queues
      </Link>
    </Notice>
  ) : (
    <Session queueId={queueId} data={session.data} />
  );
}

function Session({ queueId, data }: { queueId: string; data: ReviewSessionData }) {
  const session = useReviewSession(queueId, data);
  const { items, steps } = data;
  const { item, index, done, go } = session;

  if (items.length === 0)
    return (
      <EmptyState
        icon={<ReviewIcon />}
        title="No cases for you in this queue"
        description="Its cases are assigned to other people, or the evaluation has not produced them yet."
        action={
          <Link href="/review" className="text-sm text-accent hover:underline">
            Back to your queues
          </Link>
        }
      />
    );

  return (
    <div className="flex flex-col gap-4">
      <ReviewProgress name={data.queue.name} done={done} total={items.length} index={index} go={go} />
      {data.queue.revision ? (
        <p className="text-sm text-muted" data-testid="review-source">
          Each case shows what <span className="font-mono text-foreground">{revisionLabel(data.queue.revision)}</span>{" "}
          answered, with its trace.
        </p>
      ) : (
        <Notice tone="info" title="Inputs only">
          This queue runs no agent or prompt: judge each testcase as it is.
        </Notice>
      )}
      <div className="grid gap-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <CaseList items={items} steps={steps} index={index} go={go} />
        {item && (
          <article
            aria-labelledby="review-case-title"
            className="flex min-w-0 flex-col gap-5 rounded-xl border border-line bg-surface p-4 shadow-xs sm:p-5"
            data-testid="review-case"
          >
            <header className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="review-case-title" className="text-base font-semibold">
                Case {index + 1} of {items.length}
              </h2>
              {isAnnotated(item, steps) ? (
                <Badge tone="success" dot>
                  reviewed
                </Badge>
              ) : (
                <Badge dot>to review</Badge>
              )}
            </header>
            <CaseDetails item={item} revision={data.queue.revision} />
            <ReviewForm item={item} steps={steps} session={session} />
            <ReviewShortcuts scales={new Set(steps.map((s) => s.scale))} />
          </article>
        )}
      </div>
    </div>
  );
}
