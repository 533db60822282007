"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { compareRevisionsPath } from "@/components/evaluations/evaluation-paths";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useAgentDeployments } from "@/components/deploy/use-agent-deployments";
import { useTRPC } from "@/components/trpc";
import { Button, buttonClass, cn, EmptyState, Kbd, QueryView } from "@/components/ui";
import { ForkDialog } from "./fork-dialog";
import { HistoryRow } from "./history-row";
import { HistorySkeleton } from "./history-skeleton";
import { agentPaths } from "./paths";
import { RestoreDialog } from "./restore-dialog";
import { SectionHeader } from "./section-header";
import { TabContainer } from "./tab-container";
import { versionLabel, type AgentRevision } from "./types";
import { useHotkeys } from "@/components/ui/use-hotkeys";
import { useVariantHistory } from "./use-variant-history";

/** The log of a variant: newest first, paged, two revisions selectable for a diff, keyboard driven. */
export function HistoryView({ agentId, variantId }: { agentId: string; variantId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { query: history, revisions } = useVariantHistory(variantId);
  const agent = useQuery(trpc.agents.get.queryOptions({ id: agentId }));
  const { byRevision } = useAgentDeployments(agentId);
  const variant = agent.data?.variants.find((v) => v.id === variantId);

  const [selected, setSelected] = useState<string[]>([]);
  const [active, setActive] = useState(-1);
  const [restoring, setRestoring] = useState<AgentRevision | null>(null);
  const [forking, setForking] = useState<AgentRevision | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const links = useRef<Array<HTMLAnchorElement | null>>([]);

  const latest = revisions[0];
  const chosen = selected.map((id) => revisions.find((r) => r.id === id)).filter((r): r is AgentRevision => Boolean(r));
  const [older, newer] = [...chosen].sort((a, b) => Number(a.version) - Number(b.version));
  const compareHref = older && newer ? agentPaths.diff(agentId, variantId, older.id, newer.id) : undefined;

  function focusRow(index: number) {
    if (revisions.length === 0) return;
    const next = Math.max(0, Math.min(revisions.length - 1, index));
    setActive(next);
    const link = links.current[next];
    link?.focus();
    link?.scrollIntoView({ block: "nearest" });
    if (next >= revisions.length - 3 && history.hasNextPage && !history.isFetchingNextPage)
      void history.fetchNextPage();
  }

  function toggle(id: string) {
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id].slice(-2)));
  }

  function compare() {
    if (compareHref) return router.push(compareHref);
    const current = revisions[active];
    const previous = revisions[active + 1];
    if (current && previous) router.push(agentPaths.diff(agentId, variantId, previous.id, current.id));
  }

  useHotkeys({
    j: () => focusRow(active + 1),
    k: () => focusRow(active - 1),
    x: () => revisions[active] && toggle(revisions[active].id),
    d: compare,
    o: () => revisions[active] && router.push(agentPaths.revision(agentId, variantId, revisions[active].id)),
    Escape: () => setSelected([]),
  });

  return (
    <TabContainer>
      <SectionHeader
        title="History"
        description={
          <>
            Every commit to the{" "}
            <span className="font-medium text-foreground">{variant?.name ?? variant?.slug ?? "…"}</span> variant, newest
            first. Select two to compare them; restoring commits an old template again and never rewrites history.
          </>
        }
        actions={
          compareHref ? (
            <>
              <Link href={compareRevisionsPath([older!.id, newer!.id])} className={buttonClass()}>
                Compare evaluations
              </Link>
              <Link href={compareHref} className={buttonClass({ variant: "primary" })}>
                Compare {versionLabel(older!)} → {versionLabel(newer!)}
                <Kbd tone="inverted">d</Kbd>
              </Link>
            </>
          ) : (
            <Button variant="secondary" disabled title="Select two revisions to compare">
              Compare
            </Button>
          )
        }
      />

      <section aria-label="Revisions" className="overflow-hidden rounded-xl border border-line bg-surface shadow-xs">
        <div className="flex min-h-11 flex-wrap items-center justify-between gap-3 border-b border-line bg-surface-muted/60 px-4 py-2 text-xs text-muted">
          <span aria-live="polite">
            {chosen.length === 0 && "Select two revisions to compare them."}
            {chosen.length === 1 && (
              <>
                <span className="font-medium text-foreground">{versionLabel(chosen[0])}</span> selected; select one more
                to compare.
              </>
            )}
            {chosen.length === 2 && (
              <>
                Comparing <span className="font-medium text-foreground">{versionLabel(older!)}</span> with{" "}
                <span className="font-medium text-foreground">{versionLabel(newer!)}</span>.{" "}
                <button type="button" className="text-accent hover:underline" onClick={() => setSelected([])}>
                  Clear
                </button>
              </>
            )}
          </span>
          <span className="hidden items-center gap-3 md:flex" aria-label="Keyboard shortcuts">
            <span className="flex items-center gap-1">
              <Kbd>j</Kbd>
              <Kbd>k</Kbd> move
            </span>
            <span className="flex items-center gap-1">
              <Kbd>x</Kbd> select
            </span>
            <span className="flex items-center gap-1">
              <Kbd>d</Kbd> diff
            </span>
            <span className="flex items-center gap-1">
              <Kbd>o</Kbd> open
            </span>
          </span>
        </div>

        <QueryView
          query={history}
          pending={<HistorySkeleton />}
          errorTitle="Could not load the history"
          errorClassName="p-4"
          isEmpty={() => revisions.length === 0}
          empty={
            <EmptyState
              title="No revisions yet"
              description="Commit from the editor and each commit will appear here."
              action={
                <Link href={agentPaths.editor(agentId, variantId)} className={buttonClass({ variant: "primary" })}>
                  Open the editor
                </Link>
              }
            />
          }
        >
          {() => (
            <ul className="divide-y divide-line" aria-label="Revisions, newest first">
              {revisions.map((revision, index) => (
                <HistoryRow
                  key={revision.id}
                  agentId={agentId}
                  variantId={variantId}
                  revision={revision}
                  previous={revisions[index + 1]}
                  latest={revision.id === latest?.id}
                  environments={byRevision.get(revision.id) ?? []}
                  selected={selected.includes(revision.id)}
                  active={index === active}
                  fresh={revision.id === fresh}
                  linkRef={(el) => {
                    links.current[index] = el;
                  }}
                  onToggle={() => toggle(revision.id)}
                  onActivate={() => setActive(index)}
                  onRestore={() => setRestoring(revision)}
                  onFork={() => setForking(revision)}
                />
              ))}
            </ul>
          )}
        </QueryView>

        {(history.hasNextPage || (revisions.length > 0 && !history.isPending)) && (
          <div
            className={cn(
              "flex items-center justify-between gap-3 border-t border-line px-4 py-2.5 text-xs text-muted",
            )}
          >
            <span>
              {revisions.length} {revisions.length === 1 ? "revision" : "revisions"}
              {history.hasNextPage ? " loaded" : ""}
            </span>
            {history.hasNextPage && (
              <Button size="sm" onClick={() => history.fetchNextPage()} loading={history.isFetchingNextPage}>
                Load more
              </Button>
            )}
            {history.isFetchNextPageError && (
              <span className="text-danger">Could not load more: {history.error?.message}</span>
            )}
          </div>
        )}
      </section>

      <RestoreDialog
        revision={restoring}
        latestVersion={latest?.version}
        onClose={() => setRestoring(null)}
        onRestored={(restored) => {
          setFresh(restored.id);
          setActive(0);
          setSelected([]);
          window.scrollTo({ top: 0, behavior: "smooth" });
          setTimeout(() => setFresh((current) => (current === restored.id ? null : current)), 3_000);
        }}
      />
      <ForkDialog agentId={agentId} revision={forking} onClose={() => setForking(null)} />
    </TabContainer>
  );
}
