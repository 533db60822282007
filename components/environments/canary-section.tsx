"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "@/components/trpc";
import type { AppRouter } from "@/server/trpc";
import {
  Button,
  Card,
  Dialog,
  Notice,
  Table,
  TableBody,
  TableCell,
  TableColumnHeader,
  TableHeaderGroup,
  TableRow,
  Textarea,
  TimeAgo,
  useToast,
} from "@/components/ui";

/** The running canaries of an environment: the split, a control to move it, the ramp, and how each side does. */
export function CanarySection({ environmentId, slug }: { environmentId: string; slug: string }) {
  const trpc = useTRPC();
  const canaries = useQuery(trpc.canaries.list.queryOptions({ environmentId, running: true }));
  if (!canaries.data?.length) return null;
  return (
    <Card
      title="Canary releases"
      labelledBy="canary-title"
      description={<>A new revision takes a share of {slug}&apos;s traffic beside the one deployed.</>}
    >
      <div className="flex flex-col divide-y divide-line">
        {canaries.data.map((canary) => (
          <CanaryCard key={canary.id} canary={canary} />
        ))}
      </div>
    </Card>
  );
}

type Canary = inferRouterOutputs<AppRouter>["canaries"]["list"][number];

function CanaryCard({ canary }: { canary: Canary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const sliderId = useId();
  const [weight, setWeight] = useState(canary.weight);
  const [confirming, setConfirming] = useState<"promote" | "rollback">();
  const comparison = useQuery(trpc.canaries.comparison.queryOptions({ id: canary.id }));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.canaries.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.environments.pathKey() }),
    ]);
  const ramp = useMutation(trpc.canaries.ramp.mutationOptions({ onSuccess: refresh }));
  const promote = useMutation(
    trpc.canaries.promote.mutationOptions({
      onSuccess: async () => {
        await refresh();
        toast({ title: `Promoted v${canary.candidate.version} to all traffic` });
      },
    }),
  );
  const rollback = useMutation(
    trpc.canaries.rollback.mutationOptions({
      onSuccess: async () => {
        await refresh();
        toast({ title: `Rolled back v${canary.candidate.version}` });
      },
    }),
  );
  const error = ramp.error ?? promote.error ?? rollback.error;
  const busy = ramp.isPending || promote.isPending || rollback.isPending;
  const sides = comparison.data?.revisions ?? [];
  return (
    <div className="flex flex-col gap-4 px-5 py-4" data-testid="canary-card">
      <p className="text-sm">
        <span className="font-mono font-semibold">v{canary.candidate.version}</span> takes{" "}
        <span className="font-semibold" data-testid="canary-weight">
          {canary.weight}%
        </span>{" "}
        of <span className="font-mono">{canary.key}</span>;{" "}
        <span className="font-mono">v{canary.baseline.version}</span> takes{" "}
        {Math.round((100 - canary.weight) * 100) / 100}%. Started <TimeAgo iso={canary.started_at} />.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={sliderId} className="text-sm">
          Canary share
        </label>
        <input
          id={sliderId}
          type="range"
          min={1}
          max={100}
          step={1}
          value={weight}
          onChange={(e) => setWeight(Number(e.target.value))}
          className="w-64 accent-[var(--color-accent)]"
          aria-valuetext={`${weight}%`}
        />
        <span className="w-12 font-mono text-sm">{weight}%</span>
        <Button
          size="sm"
          disabled={busy || weight === canary.weight}
          onClick={() => ramp.mutate({ id: canary.id, weight })}
        >
          {weight === 100 ? "Set to 100% (promote)" : `Set to ${weight}%`}
        </Button>
        <span className="ml-auto flex gap-2">
          <Button
            size="sm"
            variant="primary"
            loading={promote.isPending}
            disabled={busy}
            onClick={() => setConfirming("promote")}
          >
            Promote v{canary.candidate.version}
          </Button>
          <Button size="sm" loading={rollback.isPending} disabled={busy} onClick={() => setConfirming("rollback")}>
            Roll back
          </Button>
        </span>
      </div>
      {canary.ramp && (
        <p className="text-sm text-muted" data-testid="canary-ramp">
          Ramp: {[canary.weight, ...canary.ramp.steps.filter((w) => w > canary.weight)].join("% → ")}%, one step every{" "}
          {canary.ramp.interval_minutes} min
          {canary.ramp.next_step !== undefined && canary.ramp.next_step_at && (
            <>
              ; next {canary.ramp.next_step}% <TimeAgo iso={canary.ramp.next_step_at} />
            </>
          )}
          .
        </p>
      )}
      {canary.guards.monitors && <MonitorGuardLine ids={canary.guards.monitors} />}
      {error && (
        <Notice tone="danger" title="Could not change the canary">
          {error.message}
        </Notice>
      )}
      <ConfirmCanaryEnd
        canary={canary}
        action={confirming}
        pending={promote.isPending || rollback.isPending}
        onClose={() => setConfirming(undefined)}
        onConfirm={(reason) => {
          const done = { onSuccess: () => setConfirming(undefined) };
          if (confirming === "promote") promote.mutate({ id: canary.id, reason }, done);
          else rollback.mutate({ id: canary.id, reason }, done);
        }}
        error={(confirming === "promote" ? promote.error : rollback.error)?.message}
      />
      <Table aria-label="Canary comparison" stacked>
        <TableHeaderGroup>
          <tr>
            <TableColumnHeader>Revision</TableColumnHeader>
            <TableColumnHeader>Runs</TableColumnHeader>
            <TableColumnHeader>Errors</TableColumnHeader>
            <TableColumnHeader>Cost (USD)</TableColumnHeader>
            <TableColumnHeader>Latency p50 / p90</TableColumnHeader>
            <TableColumnHeader>Live evaluation scores</TableColumnHeader>
          </tr>
        </TableHeaderGroup>
        <TableBody>
          {sides.map((side) => {
            const m = side.metrics;
            const version = side.role === "candidate" ? canary.candidate.version : canary.baseline.version;
            return (
              <TableRow key={side.revision_id}>
                <TableCell label="Revision">
                  <span className="font-mono">v{version}</span> <span className="text-muted">({side.role})</span>
                </TableCell>
                <TableCell label="Runs">{m.count}</TableCell>
                <TableCell label="Errors">
                  {m.errors} ({Math.round(m.error_rate * 1000) / 10}%)
                </TableCell>
                <TableCell label="Cost (USD)">{(m.costs.total ?? 0).toFixed(4)}</TableCell>
                <TableCell label="Latency p50 / p90">
                  {m.count === 0 ? "no runs" : `${Math.round(m.latency_ms.p50)} / ${Math.round(m.latency_ms.p90)} ms`}
                </TableCell>
                <TableCell label="Live evaluation scores" className="whitespace-normal">
                  {side.live_scores.length === 0
                    ? "—"
                    : side.live_scores.map((score) => (
                        <div key={score.evaluation_run_id} data-testid="canary-live-score">
                          {score.name ?? score.evaluation_run_id.slice(0, 8)}:{" "}
                          {score.mean === null ? "no score" : Math.round(score.mean * 1000) / 1000} ({score.results})
                        </div>
                      ))}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/**
 * Promoting or rolling back changes what every request gets: asked once more, with the reason,
 * which goes into the environment's history.
 */
function ConfirmCanaryEnd({
  canary,
  action,
  pending,
  error,
  onClose,
  onConfirm,
}: {
  canary: Canary;
  action: "promote" | "rollback" | undefined;
  pending: boolean;
  error?: string;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const promote = action === "promote";
  const candidate = `v${canary.candidate.version}`;
  const baseline = `v${canary.baseline.version}`;
  return (
    <Dialog
      open={action !== undefined}
      onClose={() => !pending && onClose()}
      role="alertdialog"
      title={promote ? `Promote ${candidate} to all traffic?` : `Roll back ${candidate}?`}
      description={
        promote
          ? `${candidate} takes all of ${canary.key}'s traffic; ${baseline} stops serving it and the canary ends.`
          : `${baseline} takes all of ${canary.key}'s traffic again; ${candidate} stops serving it and the canary ends.`
      }
      status={error && <Notice tone="danger">{error}</Notice>}
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            variant={promote ? "primary" : "danger"}
            loading={pending}
            disabled={!reason.trim()}
            onClick={() => onConfirm(reason.trim())}
          >
            {promote ? `Promote ${candidate}` : `Roll back ${candidate}`}
          </Button>
        </>
      }
    >
      <label htmlFor={reasonId} className="mb-1.5 block text-sm font-medium">
        Reason (kept in the history)
      </label>
      <Textarea
        id={reasonId}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder={promote ? "Error rate and latency match the baseline" : "Errors went up on the canary"}
        data-autofocus
      />
    </Dialog>
  );
}

/** The monitors guarding a canary, by name (an id once its monitor is deleted: it guards nothing then). */
function MonitorGuardLine({ ids }: { ids: string[] }) {
  const trpc = useTRPC();
  const monitors = useQuery(trpc.monitors.list.queryOptions());
  if (!monitors.data) return null;
  const names = ids.map((id) => monitors.data.find((m) => m.id === id)?.name ?? id);
  return (
    <p className="text-sm text-muted" data-testid="canary-guards">
      Rolls back on its own if {names.length > 1 ? "one of these monitors fires" : "this monitor fires"}:{" "}
      {names.join(", ")}.
    </p>
  );
}
