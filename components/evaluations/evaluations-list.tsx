"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { EmptyState, ListCard, PlusIcon, TimeAgo } from "@/components/ui";
import { comparePath, evaluationPath } from "./evaluation-paths";
import { EvaluationsIcon } from "./evaluations-icon";
import { RunEvaluationDialog } from "./run-dialog";
import { StatusBadge } from "./status-badge";

/** /evaluations: every run, newest first; tick two or more to compare them. */
export function EvaluationsList() {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.evaluations.list.queryOptions({ limit: 100 }),
    refetchInterval: (q) => (q.state.data?.items.some((e) => e.data.status === "running") ? 2_000 : false),
  });
  const [running, setRunning] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const newButton = (
    <MemberButton variant="primary" onClick={() => setRunning(true)} viewerTitle="Viewers cannot run evaluations">
      <PlusIcon className="size-3.5" />
      New evaluation
    </MemberButton>
  );
  return (
    <ListCard
      title="Runs"
      labelledBy="evaluations-title"
      actions={
        <>
          {picked.length >= 2 && (
            <Link
              href={comparePath(picked)}
              className="text-sm font-medium text-accent underline-offset-2 hover:underline"
            >
              Compare {picked.length}
            </Link>
          )}
          {newButton}
        </>
      }
      query={list}
      rows={(data) => data.items}
      listLabel="Evaluations"
      errorTitle="Could not load evaluations"
      empty={
        <EmptyState
          icon={<EvaluationsIcon />}
          title="No evaluations yet"
          description="Run an agent's revisions over a testset and score every answer with your evaluators."
          action={newButton}
        />
      }
      renderRow={(e) => (
        <li key={e.id} className="flex items-start gap-3 px-5 py-3" data-testid="evaluation-row">
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0"
            aria-label={`Compare ${e.name ?? e.id}`}
            checked={picked.includes(e.id)}
            onChange={(ev) => setPicked(ev.target.checked ? [...picked, e.id] : picked.filter((p) => p !== e.id))}
          />
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <Link
                href={evaluationPath(e.id)}
                className="min-w-0 font-medium break-all underline-offset-2 hover:underline"
              >
                {e.name ?? `Evaluation ${e.id.slice(0, 8)}`}
              </Link>
              <StatusBadge status={e.data.status} />
              {typeof e.meta.draft === "string" && <span className="text-xs text-muted">unsaved draft</span>}
            </div>
            <span className="text-xs text-muted">
              {typeof e.meta.evaluated === "string" && e.meta.evaluated !== e.name && (
                <span data-testid="evaluated">Evaluated {e.meta.evaluated} · </span>
              )}
              {e.data.repeats > 1 ? `${e.data.repeats} repeats · ` : ""}
              <TimeAgo iso={e.created_at} />
            </span>
          </div>
        </li>
      )}
      after={<RunEvaluationDialog open={running} onClose={() => setRunning(false)} />}
    />
  );
}
