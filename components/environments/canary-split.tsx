"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "@/components/trpc";
import type { AppRouter } from "@/server/trpc";

export type RunningCanary = inferRouterOutputs<AppRouter>["canaries"]["list"][number];

/**
 * The canary running in an environment beside the revision it deploys for one entry (its
 * baseline), if any: every place that shows what an environment runs shows the split too.
 */
export function useRunningCanary(environmentId: string | undefined, baselineRevisionId: string | undefined) {
  const trpc = useTRPC();
  const canaries = useQuery({
    ...trpc.canaries.list.queryOptions({ environmentId: environmentId ?? "", running: true }),
    enabled: Boolean(environmentId && baselineRevisionId),
  });
  return canaries.data?.find((c) => c.baseline.id === baselineRevisionId);
}

/** "v1 70% · v2 30% canary": both revisions and their shares of the traffic. */
export function splitText(canary: Pick<RunningCanary, "weight" | "baseline" | "candidate">): string {
  const baselineShare = Math.round((100 - canary.weight) * 100) / 100;
  return `v${canary.baseline.version} ${baselineShare}% · v${canary.candidate.version} ${canary.weight}% canary`;
}

/** A short line under a running revision: the split, when a canary runs beside it. */
export function CanarySplit({
  environmentId,
  baselineRevisionId,
  className,
}: {
  environmentId: string;
  baselineRevisionId: string;
  className?: string;
}) {
  const canary = useRunningCanary(environmentId, baselineRevisionId);
  if (!canary) return null;
  return (
    <span
      className={
        className ??
        "inline-flex w-fit items-center gap-1 rounded bg-warning-soft px-1.5 text-xs font-medium text-warning"
      }
      data-testid="canary-split"
      title={`A canary sends ${canary.weight}% of the traffic to v${canary.candidate.version}`}
    >
      {splitText(canary)}
    </span>
  );
}
