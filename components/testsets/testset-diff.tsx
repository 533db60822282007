"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { RevisionPicker } from "@/components/diff/revision-picker";
import { Badge, Button, Card, EmptyState, QueryError, Skeleton } from "@/components/ui";
import { useTRPC } from "@/components/trpc";
import { diffRows, type RowChange } from "./row-diff";
import { RowChangeCard } from "./row-diff-view";
import { testsetPaths } from "./testset-paths";
import { rowsOfRevision } from "./testset-table";

const SHOWN_STEP = 100;

/** Two revisions of a testset, row by row and cell by cell; unchanged rows are counted, not shown. */
export function TestsetDiff({ testsetId, from, to }: { testsetId: string; from?: string; to?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const testset = useQuery(trpc.testsets.get.queryOptions({ id: testsetId }));
  const variantId = testset.data?.variant?.id;
  const history = useQuery({
    ...trpc.testsets.history.queryOptions({ variantId: variantId ?? "" }),
    enabled: Boolean(variantId),
  });
  const before = useQuery({ ...trpc.testsets.revision.queryOptions({ id: from ?? "" }), enabled: Boolean(from) });
  const after = useQuery({ ...trpc.testsets.revision.queryOptions({ id: to ?? "" }), enabled: Boolean(to) });
  const [shown, setShown] = useState(SHOWN_STEP);
  const diff = useMemo(
    () =>
      before.data && after.data ? diffRows(rowsOfRevision(before.data.data), rowsOfRevision(after.data.data)) : null,
    [before.data, after.data],
  );
  const changes = (diff?.changes.filter((c) => c.kind !== "unchanged") ?? []) as Exclude<
    RowChange,
    { kind: "unchanged" }
  >[];
  const options = history.data?.items ?? [];
  const pick = (side: "from" | "to", id: string) =>
    router.replace(testsetPaths.diff(testsetId, side === "from" ? id : (from ?? id), side === "to" ? id : (to ?? id)));

  const error = before.error ?? after.error ?? history.error;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <RevisionPicker label="Before" value={from} options={options} onChange={(id) => pick("from", id)} />
        <RevisionPicker label="After" value={to} options={options} onChange={(id) => pick("to", id)} />
      </div>
      {error ? (
        <QueryError title="Could not load the revisions" error={error} />
      ) : !from || !to ? (
        <Card>
          <EmptyState title="Choose two revisions" description="Pick the revision before and the one after." />
        </Card>
      ) : !diff ? (
        <Skeleton className="h-64" />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="diff-stats">
            <Badge tone="success">{diff.stats.added.toLocaleString("en-US")} added</Badge>
            <Badge tone="warning">{diff.stats.changed.toLocaleString("en-US")} changed</Badge>
            <Badge tone="danger">{diff.stats.removed.toLocaleString("en-US")} removed</Badge>
            <span className="text-muted">
              {diff.stats.unchanged.toLocaleString("en-US")} {diff.stats.unchanged === 1 ? "row" : "rows"} unchanged
            </span>
            {diff.columns.added.length > 0 && (
              <span className="text-muted">· columns added: {diff.columns.added.join(", ")}</span>
            )}
            {diff.columns.removed.length > 0 && (
              <span className="text-muted">· columns removed: {diff.columns.removed.join(", ")}</span>
            )}
          </div>
          {changes.length === 0 ? (
            <Card>
              <EmptyState title="No differences" description="These two revisions hold the same rows." />
            </Card>
          ) : (
            <div className="flex min-w-0 flex-col gap-3">
              {changes.slice(0, shown).map((change) => (
                <RowChangeCard
                  key={`${change.kind}-${"before" in change ? change.before : ""}-${"after" in change ? change.after : ""}`}
                  change={change}
                />
              ))}
              {changes.length > shown && (
                <Button className="self-start" onClick={() => setShown(shown + SHOWN_STEP)}>
                  Show {Math.min(SHOWN_STEP, changes.length - shown)} more of {changes.length - shown}
                </Button>
              )}
            </div>
          )}
        </>
      )}
    </div>
  );
}
