"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { VersionBadge } from "@/components/agents/version-badge";
import { useTRPC } from "@/components/trpc";
import { Skeleton, cn, focusRing } from "@/components/ui";
import { testsetPaths } from "./testset-paths";

/** The testset's name and latest version over its two views (the table, the history), each a URL. */
export function TestsetLayout({ testsetId, children }: { testsetId: string; children: ReactNode }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const testset = useQuery(trpc.testsets.get.queryOptions({ id: testsetId }));
  const tabs = [
    { href: testsetPaths.editor(testsetId), label: "Table", current: pathname === testsetPaths.editor(testsetId) },
    {
      href: testsetPaths.history(testsetId),
      label: "History",
      current: pathname !== testsetPaths.editor(testsetId),
    },
  ];
  return (
    <div className="flex w-full max-w-[100rem] min-w-0 flex-col gap-4 px-4 py-6 md:px-6">
      <header className="flex min-w-0 flex-col border-b border-line">
        <Link href={testsetPaths.list()} className="w-fit text-xs text-muted hover:text-foreground hover:underline">
          Testsets
        </Link>
        <div className="flex min-w-0 items-center gap-2">
          {testset.data ? (
            <h1 className="min-w-0 truncate text-xl font-semibold tracking-tight" title={testset.data.testset.name}>
              {testset.data.testset.name ?? testset.data.testset.slug}
            </h1>
          ) : (
            <Skeleton className="h-7 w-56" />
          )}
          {testset.data?.revision && <VersionBadge version={testset.data.revision.version} tone="accent" />}
        </div>
        <nav aria-label="Testset views" className="-mb-px mt-3 flex gap-1">
          {tabs.map((tab) => (
            <Link
              key={tab.label}
              href={tab.href}
              aria-current={tab.current ? "page" : undefined}
              className={cn(
                "flex h-9 items-center rounded-t-md border-b-2 px-3 text-sm font-medium transition-colors",
                tab.current
                  ? "border-accent text-foreground"
                  : "border-transparent text-muted hover:border-line-strong hover:text-foreground",
                focusRing,
              )}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
      </header>
      {children}
    </div>
  );
}
