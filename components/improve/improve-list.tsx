"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc";
import {
  Card,
  EmptyState,
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
import { describeEvidence, describeOptimizationState, strategyLabel } from "./describe-evidence";
import { FindWhatFailsButton } from "./find-what-fails";
import { ImproveIcon } from "./improve-icon";
import { optimizationPath, triagePath } from "./improve-paths";
import { formatPoints, formatUsd, isActive } from "./report-math";
import { ImproveStatusBadge } from "./status-badge";

const POLL_MS = 2_000;
const rowsPending = (
  <div className="space-y-2 p-5">
    <Skeleton className="h-12" />
    <Skeleton className="h-12" />
  </div>
);

/** /improve: the project's triages and optimizations, newest first; both poll while one runs. */
export function ImproveList() {
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <TriagesCard />
      <OptimizationsCard />
    </div>
  );
}

function TriagesCard() {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.improve.triages.queryOptions({ limit: 50 }),
    refetchInterval: (q) => (q.state.data?.items.some((t) => isActive(t.status)) ? POLL_MS : false),
  });
  return (
    <Card
      title="Triages"
      labelledBy="triages-title"
      description="Failures grouped into named failure modes, each with a count and examples."
      actions={
        <FindWhatFailsButton
          traces={{ status: "error", since: "7d" }}
          describe="the failed runs of the last 7 days"
          size="sm"
        />
      }
    >
      <QueryView
        query={list}
        pending={rowsPending}
        errorTitle="Could not load triages"
        errorClassName="p-5"
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState
            icon={<ImproveIcon className="size-5" />}
            title="No triage yet"
            description="Start one with “Find what fails” here, on Traces, on Analytics, on a monitor's alert or on an evaluation run."
          />
        }
      >
        {(data) => (
          <Table aria-label="Triages" stacked>
            <TableHeaderGroup>
              <TableRow>
                <TableColumnHeader>Evidence</TableColumnHeader>
                <TableColumnHeader>Status</TableColumnHeader>
                <TableColumnHeader>Failure modes</TableColumnHeader>
                <TableColumnHeader>Grouped by</TableColumnHeader>
                <TableColumnHeader>Started</TableColumnHeader>
              </TableRow>
            </TableHeaderGroup>
            <TableBody>
              {data.items.map((t) => (
                <TableRow key={t.id} data-testid="triage-row">
                  <TableCell label="Evidence" className="whitespace-normal wrap-anywhere">
                    <Link href={triagePath(t.id)} className="font-medium underline-offset-2 hover:underline">
                      {describeEvidence(t.evidence)}
                    </Link>
                  </TableCell>
                  <TableCell label="Status">
                    <ImproveStatusBadge status={t.status} />
                  </TableCell>
                  <TableCell label="Failure modes" className="tabular-nums">
                    {t.failure_modes?.length ?? "—"}
                  </TableCell>
                  <TableCell label="Grouped by" className="text-xs whitespace-normal wrap-anywhere text-muted">
                    {t.method === "heuristic" ? "What is known" : (t.model ?? "—")}
                  </TableCell>
                  <TableCell label="Started" className="text-muted">
                    <TimeAgo iso={t.created_at} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryView>
    </Card>
  );
}

function OptimizationsCard() {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.improve.optimizations.queryOptions({ limit: 50 }),
    refetchInterval: (q) => (q.state.data?.items.some((o) => isActive(o.status)) ? POLL_MS : false),
  });
  return (
    <Card
      title="Optimizations"
      labelledBy="optimizations-title"
      description="Candidate revisions generated from a base, scored on a testset, the winner measured on a held-out split."
    >
      <QueryView
        query={list}
        pending={rowsPending}
        errorTitle="Could not load optimizations"
        errorClassName="p-5"
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState
            icon={<ImproveIcon className="size-5" />}
            title="No optimization yet"
            description="Start one with “Improve” on an agent's revision or on a failure mode of a triage."
          />
        }
      >
        {(data) => (
          <Table aria-label="Optimizations" stacked>
            <TableHeaderGroup>
              <TableRow>
                <TableColumnHeader>Optimization</TableColumnHeader>
                <TableColumnHeader>Status</TableColumnHeader>
                <TableColumnHeader>Held-out change</TableColumnHeader>
                <TableColumnHeader>Spend</TableColumnHeader>
                <TableColumnHeader>Started</TableColumnHeader>
              </TableRow>
            </TableHeaderGroup>
            <TableBody>
              {data.items.map((o) => {
                const result = o.result;
                const base = result?.base.holdout_score;
                const winner = result?.winner.holdout_score;
                return (
                  <TableRow key={o.id} data-testid="optimization-row">
                    <TableCell label="Optimization" className="whitespace-normal wrap-anywhere">
                      <Link href={optimizationPath(o.id)} className="font-medium underline-offset-2 hover:underline">
                        {o.base_kind === "workflow" ? "Agent" : "Prompt"} revision {o.base_revision_id.slice(0, 8)}
                      </Link>
                      <span className="block text-xs text-muted">{o.strategies.map(strategyLabel).join(", ")}</span>
                    </TableCell>
                    <TableCell label="Status">
                      <span className="flex flex-col items-start gap-0.5">
                        <ImproveStatusBadge status={o.status} />
                        {describeOptimizationState(o) && (
                          <span className="text-xs text-muted">{describeOptimizationState(o)}</span>
                        )}
                      </span>
                    </TableCell>
                    <TableCell label="Held-out change" className="tabular-nums">
                      {base !== undefined && winner !== undefined ? formatPoints(winner - base) : "—"}
                    </TableCell>
                    <TableCell label="Spend" className="tabular-nums">
                      {formatUsd(o.spend_usd ?? o.progress?.spend_usd)}
                    </TableCell>
                    <TableCell label="Started" className="text-muted">
                      <TimeAgo iso={o.created_at} />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </QueryView>
    </Card>
  );
}
