"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { PageContainer, PageHeader } from "@/components/shell";
import { MemberButton } from "@/components/shell/member-button";
import { useTRPC } from "@/components/trpc";
import { Button, Card, EmptyState, Kbd, PagedListFooter, PlusIcon, QueryView } from "@/components/ui";
import { agentsListPath } from "./agent-paths";
import { AgentsTable } from "./agents-table";
import { AgentsTableSkeleton } from "./agents-table-skeleton";
import { AgentsToolbar } from "./agents-toolbar";
import { CreateAgentDialog } from "./create-agent-dialog";
import { environmentColumns } from "./environment-columns";
import { AgentIcon } from "./icons";
import { useDebouncedValue } from "./use-debounced-value";
import { useHotkeys } from "@/components/ui/use-hotkeys";

const PAGE_SIZE = 25;

/** `/agents?q=&archived=1`: the project's agents, searchable, paged by the API's cursor. */
export function AgentsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const q = params.get("q") ?? "";
  const archivedInUrl = params.get("archived") === "1";
  // The checkbox answers at once; the URL follows (router.replace is a transition).
  const [archived, setArchived] = useState(archivedInUrl);
  // Back/forward or a link changed the URL: the checkbox follows it.
  const [urlArchived, setUrlArchived] = useState(archivedInUrl);
  if (urlArchived !== archivedInUrl) {
    setUrlArchived(archivedInUrl);
    setArchived(archivedInUrl);
  }

  const [search, setSearch] = useState(q);
  const [creating, setCreating] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const debounced = useDebouncedValue(search.trim(), 250);
  // What this page last wrote to the URL; anything else in `q` came from back/forward or a link.
  const pushed = useRef(q);

  useEffect(() => {
    if (debounced === pushed.current) return;
    pushed.current = debounced;
    router.replace(agentsListPath({ q: debounced, archived }), { scroll: false });
  }, [debounced, archived, router]);

  useEffect(() => {
    if (q === pushed.current) return;
    pushed.current = q;
    setSearch(q);
  }, [q]);

  useHotkeys({
    "/": () => searchRef.current?.focus(),
    c: () => setCreating(true),
  });

  const list = useInfiniteQuery(
    trpc.agents.list.infiniteQueryOptions(
      { search: debounced || undefined, includeArchived: archived, limit: PAGE_SIZE },
      { getNextPageParam: (page) => page.next, placeholderData: keepPreviousData },
    ),
  );
  const environments = useQuery(trpc.environments.list.queryOptions());
  const columns = environmentColumns(environments.data);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  const createButton = (
    <MemberButton
      variant="primary"
      onClick={() => setCreating(true)}
      aria-keyshortcuts="c"
      viewerTitle="Viewers cannot create agents"
    >
      <PlusIcon className="size-3.5" />
      New agent
      <Kbd aria-hidden="true" tone="inverted" className="ml-1">
        C
      </Kbd>
    </MemberButton>
  );

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Agents"
        description="Each agent is a versioned template: instructions, model, tools and policies. Edit, commit, then deploy a revision to an environment."
        actions={createButton}
      />
      <Card>
        <AgentsToolbar
          ref={searchRef}
          search={search}
          onSearch={setSearch}
          archived={archived}
          onArchived={(next) => {
            setArchived(next);
            router.replace(agentsListPath({ q: debounced, archived: next }), { scroll: false });
          }}
          searching={list.isFetching && !list.isFetchingNextPage}
        />
        <QueryView
          query={list}
          pending={<AgentsTableSkeleton />}
          errorTitle="Could not load agents"
          errorClassName="p-5"
          isEmpty={() => items.length === 0}
          empty={
            debounced || archived ? (
              <EmptyState
                icon={<AgentIcon />}
                title="No agents match"
                description={
                  debounced
                    ? `Nothing is named like “${debounced}”${archived ? "" : " among active agents"}.`
                    : "No agents yet."
                }
                action={
                  <Button onClick={() => setSearch("")} disabled={!debounced}>
                    Clear search
                  </Button>
                }
              />
            ) : (
              <EmptyState
                icon={<AgentIcon />}
                title="No agents yet"
                description="Create your first agent: it starts from a working default template, committed as version 1."
                action={createButton}
              />
            )
          }
        >
          {() => (
            <>
              <AgentsTable items={items} environments={columns} />
              <PagedListFooter count={items.length} noun={["agent", "agents"]} pages={list} />
            </>
          )}
        </QueryView>
      </Card>
      <CreateAgentDialog open={creating} onClose={() => setCreating(false)} />
    </PageContainer>
  );
}

/** What the page shows before its search parameters are known (the Suspense fallback). */
export function AgentsPageSkeleton() {
  return (
    <PageContainer className="max-w-7xl">
      <PageHeader title="Agents" />
      <Card>
        <AgentsTableSkeleton />
      </Card>
    </PageContainer>
  );
}
