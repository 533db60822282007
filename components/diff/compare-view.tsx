"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Button, EmptyState, Kbd, Notice, QueryError, Skeleton, TimeAgo } from "@/components/ui";
import { agentPaths } from "@/components/history/paths";
import { SectionHeader } from "@/components/history/section-header";
import { TabContainer } from "@/components/history/tab-container";
import { useVariantLabels } from "@/components/agents/use-variant-labels";
import { templateOf, variantIdOf, variantSlugOf, versionLabel, type AgentRevision } from "@/components/history/types";
import { useHotkeys } from "@/components/ui/use-hotkeys";
import { useVariantHistory } from "@/components/history/use-variant-history";
import { useTRPC } from "@/components/trpc";
import { CopyLinkButton } from "./copy-link-button";
import { DiffView } from "./diff-view";
import { diffJson } from "./line-diff";
import { RevisionPicker, type PickableRevision } from "./revision-picker";

/**
 * The diff page: two revisions picked by id in the URL (`?from=&to=`), so every comparison is a
 * link. Without them it compares the latest revision with the one before it.
 */
export function CompareView({
  agentId,
  variantId,
  from,
  to,
}: {
  agentId: string;
  variantId: string;
  from?: string;
  to?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const { query: history, revisions } = useVariantHistory(variantId);
  const fromQuery = useQuery({ ...trpc.agents.revision.queryOptions({ id: from ?? "" }), enabled: Boolean(from) });
  const toQuery = useQuery({ ...trpc.agents.revision.queryOptions({ id: to ?? "" }), enabled: Boolean(to) });
  const [expandAll, setExpandAll] = useState(false);
  const variantName = useVariantLabels(agentId);

  const go = useCallback(
    (nextFrom: string, nextTo: string) =>
      router.replace(agentPaths.diff(agentId, variantId, nextFrom, nextTo), { scroll: false }),
    [router, agentId, variantId],
  );

  // An incomplete URL gets sensible defaults, written back so the page can be shared as is.
  useEffect(() => {
    if ((from && to) || revisions.length === 0) return;
    const target = to ? (revisions.find((r) => r.id === to) ?? toQuery.data) : revisions[0];
    if (!target) return;
    const base = from ?? revisions.find((r) => Number(r.version) === Number(target.version) - 1)?.id ?? target.id;
    go(base, target.id);
  }, [from, to, revisions, toQuery.data, go]);

  const options = useMemo(() => {
    const list: PickableRevision[] = revisions.map((r) => ({ id: r.id, version: r.version, message: r.message }));
    // A revision from another variant or an older page still shows in its picker.
    for (const extra of [fromQuery.data, toQuery.data]) {
      if (extra && !list.some((o) => o.id === extra.id))
        list.push({
          id: extra.id,
          version: extra.version,
          message: extra.message,
          variantName: variantName(variantIdOf(extra), variantSlugOf(extra)),
        });
    }
    return list;
  }, [revisions, fromQuery.data, toQuery.data, variantName]);

  const rows = useMemo(
    () => (fromQuery.data && toQuery.data ? diffJson(templateOf(fromQuery.data), templateOf(toQuery.data)) : undefined),
    [fromQuery.data, toQuery.data],
  );

  const swap = () => from && to && go(to, from);
  useHotkeys({
    s: swap,
    e: () => setExpandAll((open) => !open),
    h: () => router.push(agentPaths.history(agentId, variantId)),
  });

  const failed = fromQuery.error ?? toQuery.error ?? (history.isError ? history.error : null);

  return (
    <TabContainer wide>
      <SectionHeader
        title="Compare revisions"
        description={
          'The agent template of each revision as JSON with sorted keys, long texts such as AGENTS.md line by line between """ fences. Red lines are only in the base, green lines only in the compared revision.'
        }
        actions={<CopyLinkButton />}
      />

      <div className="flex flex-wrap items-end gap-2 rounded-xl border border-line bg-surface px-4 py-3 shadow-xs">
        <RevisionPicker
          className="w-72"
          label="Base"
          value={from}
          options={options}
          onChange={(id) => go(id, to ?? id)}
        />
        <Button
          onClick={swap}
          disabled={!from || !to}
          aria-label="Swap base and compared revisions"
          title="Swap (s)"
          className="mb-0"
        >
          <SwapIcon />
          Swap
        </Button>
        <RevisionPicker
          className="w-72"
          label="Compare"
          value={to}
          options={options}
          onChange={(id) => go(from ?? id, id)}
        />
        <div className="ml-auto hidden items-center gap-3 text-xs text-muted lg:flex" aria-label="Keyboard shortcuts">
          <span className="flex items-center gap-1">
            <Kbd>s</Kbd> swap
          </span>
          <span className="flex items-center gap-1">
            <Kbd>e</Kbd> expand all
          </span>
          <span className="flex items-center gap-1">
            <Kbd>h</Kbd> history
          </span>
        </div>
      </div>

      {failed ? (
        <QueryError
          title="Could not load the revisions to compare"
          error={failed}
          onRetry={() => (fromQuery.refetch(), toQuery.refetch())}
        />
      ) : !from || !to ? (
        history.isPending ? (
          <Skeleton className="h-96 w-full" />
        ) : (
          <EmptyState title="Pick two revisions" description="Choose a base and a revision to compare it with." />
        )
      ) : !rows || !fromQuery.data || !toQuery.data ? (
        <div role="status" aria-label="Loading diff" className="flex flex-col gap-2">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-96 w-full" />
        </div>
      ) : (
        <>
          {from === to && (
            <Notice title="Both sides are the same revision">
              Pick another revision in either picker to see changes.
            </Notice>
          )}
          <DiffView
            key={`${from}:${to}`}
            rows={rows}
            label={`Changes from ${versionLabel(fromQuery.data)} to ${versionLabel(toQuery.data)}`}
            leftLabel={<ColumnLabel agentId={agentId} revision={fromQuery.data} />}
            rightLabel={<ColumnLabel agentId={agentId} revision={toQuery.data} />}
            expandAll={expandAll}
            onExpandAllChange={setExpandAll}
          />
        </>
      )}
    </TabContainer>
  );
}

function ColumnLabel({ agentId, revision }: { agentId: string; revision: AgentRevision }) {
  const variantName = useVariantLabels(agentId);
  const variantId = (revision as { workflow_variant_id?: string }).workflow_variant_id;
  return (
    <span className="flex min-w-0 items-center gap-2">
      <Link
        href={variantId ? agentPaths.revision(agentId, variantId, revision.id) : "#"}
        className="shrink-0 font-mono font-semibold hover:underline"
        data-testid="diff-side-version"
      >
        {versionLabel(revision)}
      </Link>
      {variantSlugOf(revision) && (
        <span className="max-w-32 shrink-0 truncate text-muted">
          {variantName(variantIdOf(revision), variantSlugOf(revision))}
        </span>
      )}
      <span className="truncate font-normal text-muted">{revision.message ?? "No message"}</span>
      <span className="ml-auto shrink-0 font-normal text-muted">
        <TimeAgo iso={revision.date} />
      </span>
    </span>
  );
}

function SwapIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="size-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M4 8h14l-4-4M20 16H6l4 4" />
    </svg>
  );
}
