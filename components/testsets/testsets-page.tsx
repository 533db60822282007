"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { VersionBadge } from "@/components/agents/version-badge";
import { MemberButton } from "@/components/shell/member-button";
import {
  Card,
  cn,
  EmptyState,
  focusRing,
  PagedListFooter,
  PlusIcon,
  QueryView,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableColumnHeader,
  TableHeaderGroup,
  TableRow,
  TimeAgo,
} from "@/components/ui";
import { PageContainer, PageHeader } from "@/components/shell";
import { useTRPC } from "@/components/trpc";
import { CreateTestsetDialog } from "./create-testset-dialog";
import { testsetPaths } from "./testset-paths";
import { TestsetsIcon } from "./testsets-icon";

const PAGE_SIZE = 50;

/** `/testsets`: the project's testsets with their size and latest version; create one (empty or by import). */
export function TestsetsPage() {
  const trpc = useTRPC();
  const [creating, setCreating] = useState(false);
  const list = useInfiniteQuery(
    trpc.testsets.list.infiniteQueryOptions({ limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next }),
  );
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  const createButton = (
    <MemberButton variant="primary" onClick={() => setCreating(true)} viewerTitle="Viewers cannot create testsets">
      <PlusIcon className="size-3.5" />
      New testset
    </MemberButton>
  );

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Testsets"
        description="Inputs and expected answers to evaluate agents on. Every save is a commit: compare any two versions, restore an old one."
        actions={createButton}
      />
      <Card>
        <QueryView
          query={list}
          pending={
            <div role="status" aria-label="Loading testsets" className="divide-y divide-line">
              {[0, 1, 2].map((row) => (
                <div key={row} className="flex h-14 items-center gap-6 px-5">
                  <Skeleton className="h-4 w-48" />
                  <Skeleton className="h-4 w-16" />
                  <Skeleton className="ml-auto h-4 w-40" />
                </div>
              ))}
            </div>
          }
          errorTitle="Could not load testsets"
          errorClassName="p-5"
          isEmpty={() => items.length === 0}
          empty={
            <EmptyState
              icon={<TestsetsIcon />}
              title="No testsets yet"
              description="Import a CSV or JSON file, start an empty table, or add traces and chat turns to a testset from their pages."
              action={createButton}
            />
          }
        >
          {() => (
            <>
              <Table aria-label="Testsets">
                <TableHeaderGroup>
                  <tr>
                    <TableColumnHeader>Testset</TableColumnHeader>
                    <TableColumnHeader className="text-right">Rows</TableColumnHeader>
                    <TableColumnHeader>Latest</TableColumnHeader>
                    <TableColumnHeader className="w-full">Last change</TableColumnHeader>
                  </tr>
                </TableHeaderGroup>
                <TableBody>
                  {items.map((item) => (
                    <TableRow key={item.testset.id} data-testid="testset-row" className="h-14">
                      <TableCell className="max-w-[min(24rem,60vw)]">
                        <Link
                          href={testsetPaths.editor(item.testset.id)}
                          title={item.testset.name ?? item.testset.slug}
                          className={cn("block truncate rounded font-medium hover:underline", focusRing)}
                        >
                          {item.testset.name ?? item.testset.slug}
                        </Link>
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {item.latest ? item.latest.rows.toLocaleString("en-US") : "—"}
                      </TableCell>
                      <TableCell>{item.latest ? <VersionBadge version={item.latest.version} /> : "—"}</TableCell>
                      <TableCell className="max-w-0 text-muted">
                        {item.latest && (
                          <span className="flex min-w-0 items-center gap-2">
                            <span className="truncate" title={item.latest.message ?? undefined}>
                              {item.latest.message ?? "No message"}
                            </span>
                            <span className="shrink-0 text-xs">
                              <TimeAgo iso={item.latest.date} />
                            </span>
                          </span>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <PagedListFooter count={items.length} noun={["testset", "testsets"]} pages={list} />
            </>
          )}
        </QueryView>
      </Card>
      <CreateTestsetDialog open={creating} onClose={() => setCreating(false)} />
    </PageContainer>
  );
}
