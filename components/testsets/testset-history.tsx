"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Author } from "@/components/history/author";
import { Badge, Button, buttonClass, Card, cn, QueryError, Skeleton, TimeAgo } from "@/components/ui";
import { useCanEdit } from "@/components/shell/account-context";
import { useTRPC } from "@/components/trpc";
import { RestoreTestsetDialog } from "./restore-testset-dialog";
import { testsetPaths } from "./testset-paths";
import type { TestsetRevision } from "./types";

/** Every commit of the testset, newest first: pick two to compare, diff one with its parent, restore one. */
export function TestsetHistory({ testsetId }: { testsetId: string }) {
  const trpc = useTRPC();
  const canEdit = useCanEdit();
  const testset = useQuery(trpc.testsets.get.queryOptions({ id: testsetId }));
  const variantId = testset.data?.variant?.id;
  const history = useQuery({
    ...trpc.testsets.history.queryOptions({ variantId: variantId ?? "" }),
    enabled: Boolean(variantId),
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [restoring, setRestoring] = useState<TestsetRevision | null>(null);
  const revisions = history.data?.items ?? [];
  const chosen = revisions.filter((r) => selected.includes(r.id)).sort((a, b) => Number(a.version) - Number(b.version));
  const toggle = (id: string) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id].slice(-2)));

  const error = testset.error ?? history.error;
  if (error) return <QueryError title="Could not load the history" error={error} />;
  if (testset.isPending || history.isPending) return <Skeleton className="h-64" />;
  const latest = revisions[0];

  return (
    <Card>
      <div className="flex min-h-11 flex-wrap items-center justify-between gap-3 border-b border-line bg-surface-muted/60 px-4 py-2 text-xs text-muted">
        <span aria-live="polite">
          {chosen.length < 2
            ? "Select two revisions to compare them."
            : `Comparing v${chosen[0].version} with v${chosen[1].version}.`}
        </span>
        {chosen.length === 2 ? (
          <Link
            href={testsetPaths.diff(testsetId, chosen[0].id, chosen[1].id)}
            className={buttonClass({ variant: "primary", size: "sm" })}
          >
            Compare v{chosen[0].version} → v{chosen[1].version}
          </Link>
        ) : (
          <Button size="sm" disabled>
            Compare
          </Button>
        )}
      </div>
      <ul className="divide-y divide-line" aria-label="Revisions, newest first">
        {revisions.map((revision, index) => {
          const previous = revisions[index + 1];
          const isSelected = selected.includes(revision.id);
          return (
            <li
              key={revision.id}
              data-testid="revision-row"
              data-version={revision.version}
              className={cn(
                "flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5 pr-3 pl-4",
                isSelected && "bg-accent-soft/50",
              )}
            >
              <input
                type="checkbox"
                checked={isSelected}
                onChange={() => toggle(revision.id)}
                aria-label={`Select v${revision.version} to compare`}
                className="size-4 shrink-0 cursor-pointer accent-[var(--accent)]"
              />
              <span className="w-10 shrink-0 font-mono text-xs font-semibold tabular-nums">v{revision.version}</span>
              <span
                className={cn("min-w-32 flex-1 basis-40 truncate", !revision.message && "text-muted italic")}
                title={revision.message ?? undefined}
              >
                {revision.message ?? "No message"}
              </span>
              {revision.id === latest?.id && <Badge>Latest</Badge>}
              <span className="hidden w-36 shrink-0 text-xs text-muted lg:block">
                <Author id={revision.author} />
              </span>
              <span className="shrink-0 text-xs text-muted tabular-nums sm:w-24 sm:text-right">
                <TimeAgo iso={revision.date} />
              </span>
              <span className="ml-auto flex shrink-0 items-center gap-0.5">
                {previous && (
                  <Link
                    href={testsetPaths.diff(testsetId, previous.id, revision.id)}
                    className={buttonClass({ variant: "ghost", size: "sm" })}
                    aria-label={`Compare v${revision.version} with v${previous.version}`}
                  >
                    Diff
                  </Link>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setRestoring(revision)}
                  disabled={revision.id === latest?.id || !canEdit}
                  aria-label={`Restore v${revision.version}`}
                >
                  Restore
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
      <RestoreTestsetDialog
        revision={restoring}
        nextVersion={String(Number(latest?.version ?? 0) + 1)}
        onClose={() => setRestoring(null)}
      />
    </Card>
  );
}
