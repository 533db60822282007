"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc";
import { Badge, buttonClass, EmptyState, ListCard, PlusIcon, TimeAgo } from "@/components/ui";
import { evaluatorPath, newEvaluatorPath } from "./evaluator-paths";
import { EvaluatorsIcon } from "./evaluators-icon";

/** The name of the built-in template a revision's `data.uri` names, else the uri itself. */
export function templateKeyOf(uri: unknown): string {
  const match = typeof uri === "string" ? /^(?:svc|agenta):(?:builtin|custom):([^:]+):/.exec(uri) : null;
  return match?.[1] ?? String(uri ?? "custom");
}

/** /evaluators: every evaluator, its template and latest version. */
export function EvaluatorsList() {
  const trpc = useTRPC();
  const list = useQuery(trpc.evaluators.list.queryOptions());
  const newButton = (
    <Link href={newEvaluatorPath()} className={buttonClass({ variant: "primary" })}>
      <PlusIcon className="size-3.5" />
      New evaluator
    </Link>
  );
  return (
    <ListCard
      title="Evaluators"
      labelledBy="evaluators-title"
      actions={newButton}
      query={list}
      listLabel="Evaluators"
      errorTitle="Could not load evaluators"
      empty={
        <EmptyState
          icon={<EvaluatorsIcon />}
          title="No evaluators yet"
          description="An evaluator scores an output: exact match, a regex, or a judge model with your prompt. Start from a preset."
          action={newButton}
        />
      }
      renderRow={({ evaluator, revisions }) => {
        const latest = revisions[0];
        return (
          <li key={evaluator.id} className="flex flex-col gap-1 px-5 py-3" data-testid="evaluator-row">
            <div className="flex flex-wrap items-center gap-2">
              <Link
                href={evaluatorPath(evaluator.id)}
                className="font-medium break-all underline-offset-2 hover:underline"
              >
                {evaluator.name ?? evaluator.slug}
              </Link>
              <Badge>{templateKeyOf(latest?.data?.uri)}</Badge>
              {latest && <Badge tone="accent">v{latest.version}</Badge>}
            </div>
            {latest && (
              <div className="flex flex-wrap gap-x-3 text-xs text-muted">
                <span className="break-all">{latest.message}</span>
                <span>
                  <TimeAgo iso={latest.created_at ?? ""} />
                </span>
              </div>
            )}
          </li>
        );
      }}
    />
  );
}
