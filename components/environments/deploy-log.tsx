"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { Author } from "@/components/history/author";
import { Button, cn, QueryView, Skeleton, TimeAgo } from "@/components/ui";
import { useTRPC } from "@/components/trpc";
import { canaryActionOf, unchangedText, type CanaryAction } from "./canary-action";
import { entryDiffHref, entryName, entryRevisionHref } from "./paths";
import type { DeployChange, DeployedEntry, DeployLogItem } from "./types";

/**
 * An environment's deploys, newest first, paged with the API cursor: who, when, the message, and
 * what each deploy changed, with links to the revisions and their diff. With `artifactId`, only
 * the deploys of one agent (the agent's Deploy tab).
 */
export function DeployLog({
  environment,
  artifactId,
  pageSize = 20,
  compact = false,
  emptyText = "No deploys yet.",
}: {
  environment: string;
  artifactId?: string;
  pageSize?: number;
  compact?: boolean;
  emptyText?: string;
}) {
  const trpc = useTRPC();
  const log = useInfiniteQuery(
    trpc.environments.deploys.infiniteQueryOptions(
      { environment, artifactId, limit: pageSize },
      { getNextPageParam: (last) => last.next },
    ),
  );
  const items = useMemo(() => log.data?.pages.flatMap((p) => p.items) ?? [], [log.data]);

  return (
    <QueryView
      query={log}
      pending={
        <div role="status" aria-label="Loading deploys" className="flex flex-col gap-3 p-4">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-5 w-full" />
          ))}
        </div>
      }
      errorTitle="Could not load the deploy history"
      errorClassName="p-4"
      isEmpty={() => items.length === 0}
      empty={
        <p className={cn("text-muted", compact ? "px-4 pt-1 pb-3 text-xs" : "px-5 py-8 text-center text-sm")}>
          {emptyText}
        </p>
      }
    >
      {() => (
        <div>
          <ol className="divide-y divide-line" aria-label={`Deploys to ${environment}, newest first`}>
            {items.map((item) =>
              compact ? (
                <CompactItem key={item.revision.id} item={item} />
              ) : (
                <FullItem key={item.revision.id} item={item} />
              ),
            )}
          </ol>
          {log.hasNextPage && (
            <div className={cn("flex justify-center border-t border-line", compact ? "py-2" : "py-3")}>
              <Button
                size="sm"
                variant={compact ? "ghost" : "secondary"}
                onClick={() => log.fetchNextPage()}
                loading={log.isFetchingNextPage}
              >
                Load more
              </Button>
            </div>
          )}
        </div>
      )}
    </QueryView>
  );
}

function FullItem({ item }: { item: DeployLogItem }) {
  const { revision, changes } = item;
  const canary = canaryActionOf(revision.message);
  return (
    <li className="flex gap-4 px-5 py-3.5" data-testid="deploy-log-item">
      <span
        className="mt-0.5 w-10 shrink-0 font-mono text-xs text-muted tabular-nums"
        title={`Environment revision ${revision.version}`}
      >
        #{revision.version}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {canary && <CanaryBadge action={canary} />}
          <span className={cn("min-w-0 truncate font-medium", !revision.message && "font-normal text-muted italic")}>
            {revision.message ?? "No message"}
          </span>
          <span className="ml-auto flex shrink-0 items-center gap-2 text-xs text-muted">
            <Author id={revision.author} />
            <span aria-hidden="true">·</span>
            <TimeAgo iso={revision.date} />
          </span>
        </div>
        {changes.length === 0 ? (
          <p className="text-xs text-muted">{unchangedText(canary)}</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {changes.map((change) => (
              <ChangeLine key={change.key} change={change} />
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

function CompactItem({ item }: { item: DeployLogItem }) {
  const { revision, changes } = item;
  const change = changes[0];
  const canary = canaryActionOf(revision.message);
  return (
    <li
      className="flex items-center gap-2 px-4 py-2 text-xs"
      data-testid="deploy-log-item"
      title={revision.message ?? undefined}
    >
      {canary && <CanaryBadge action={canary} />}
      {change ? <VersionMove change={change} /> : !canary && <span className="text-muted">Redeploy</span>}
      <span className="ml-auto flex shrink-0 items-center gap-1.5 text-muted">
        <Author id={revision.author} compact />
        <TimeAgo iso={revision.date} />
      </span>
    </li>
  );
}

function CanaryBadge({ action }: { action: CanaryAction }) {
  return (
    <span
      className="shrink-0 rounded bg-warning-soft px-1.5 text-[11px] font-medium text-warning"
      data-testid="canary-action"
    >
      Canary {action}
    </span>
  );
}

function ChangeLine({ change }: { change: DeployChange }) {
  const entry = change.after ?? change.before;
  if (!entry) return <li className="text-xs text-muted">{change.key}</li>;
  const diffHref = change.before && change.after ? entryDiffHref(change.before, change.after) : undefined;
  return (
    <li className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <span className="font-medium">{entryName(entry)}</span>
      {entry.kind !== "workflow" && <span className="text-xs text-muted">{entry.kind}</span>}
      <VersionMove change={change} />
      {diffHref && (
        <Link href={diffHref} className="text-xs text-accent hover:underline">
          View diff
        </Link>
      )}
    </li>
  );
}

/** `v1 → v2` (links to the revisions), `new v1`, or `removed (was v1)`. */
function VersionMove({ change }: { change: DeployChange }) {
  if (change.action === "created" && change.after) {
    return (
      <span className="flex items-center gap-1.5">
        <span className="rounded bg-success-soft px-1 text-[11px] font-medium text-success">new</span>
        <Version entry={change.after} />
      </span>
    );
  }
  if (change.action === "deleted" && change.before) {
    return (
      <span className="flex items-center gap-1.5 text-muted">
        removed (was <Version entry={change.before} />)
      </span>
    );
  }
  return (
    <span className="flex items-center gap-1.5">
      {change.before && <Version entry={change.before} muted />}
      <span aria-label="to" className="text-muted">
        →
      </span>
      {change.after && <Version entry={change.after} />}
    </span>
  );
}

function Version({ entry, muted = false }: { entry: DeployedEntry; muted?: boolean }) {
  const href = entryRevisionHref(entry);
  const label = (
    <>
      <span className="font-mono font-semibold">v{entry.revision.version}</span>
      {entry.variant.slug !== "default" && <span className="font-mono text-muted"> ({entry.variant.slug})</span>}
    </>
  );
  const className = cn("text-xs", muted && "opacity-70");
  return href ? (
    <Link href={href} className={cn(className, "hover:underline")}>
      {label}
    </Link>
  ) : (
    <span className={className}>{label}</span>
  );
}
