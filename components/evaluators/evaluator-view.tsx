"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc";
import { HUMAN_FEEDBACK_URI } from "@/shared/evaluator-uris";
import { Badge, Card, Notice, QueryError, Skeleton, TimeAgo } from "@/components/ui";
import { EvaluatorEditor } from "./evaluator-editor";
import { templateKeyOf } from "./evaluators-list";

/** One evaluator: its form at the latest revision (saving commits the next one) and its history. */
export function EvaluatorView({ id }: { id: string }) {
  const trpc = useTRPC();
  const evaluator = useQuery(trpc.evaluators.get.queryOptions({ id }));
  const templates = useQuery(trpc.evaluators.templates.queryOptions());
  if (evaluator.isPending || templates.isPending) return <Skeleton className="h-96" />;
  if (evaluator.isError || templates.isError)
    return (
      <QueryError
        title="Could not load the evaluator"
        error={(evaluator.error ?? templates.error)!}
        onRetry={() => void Promise.all([evaluator.refetch(), templates.refetch()])}
        retrying={evaluator.isFetching || templates.isFetching}
      />
    );
  const { revisions } = evaluator.data;
  const latest = revisions[0];
  const key = templateKeyOf(latest?.data?.uri);
  const template = templates.data.find((t) => t.key === key);
  const variantId = latest?.evaluator_variant_id as string | undefined;
  return (
    <div className="flex flex-col gap-6">
      {template && latest && variantId ? (
        // Not keyed by revision: a save keeps the form and the Try it sample as they are.
        <EvaluatorEditor
          template={template}
          initialName={evaluator.data.evaluator.name ?? ""}
          initialParameters={{ ...((latest.data?.parameters as Record<string, unknown>) ?? {}) }}
          target={{ kind: "commit", variantId, evaluatorId: id }}
        />
      ) : latest?.data?.uri === HUMAN_FEEDBACK_URI ? (
        <Notice tone="info" title="Human feedback">
          People score with it in review queues; it never runs by itself. Open a queue with it under{" "}
          <Link href="/review" className="underline">
            Review
          </Link>
          .
        </Notice>
      ) : (
        <Notice tone="info" title="Not a built-in evaluator">
          Its data names <code className="break-all">{String(latest?.data?.uri ?? "nothing")}</code>; edit it through
          the API.
        </Notice>
      )}
      <Card title="History" description="Every save is a revision; an evaluation runs the revision it was given.">
        <ol className="divide-y divide-line" aria-label="Revisions">
          {revisions.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-2 text-sm">
              <Badge tone="accent">v{r.version}</Badge>
              <span className="min-w-0 break-all">{r.message}</span>
              <span className="ml-auto text-xs text-muted">
                <TimeAgo iso={r.created_at ?? ""} />
              </span>
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
