"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { Author } from "@/components/history/author";
import { agentPaths } from "@/components/history/paths";
import { cn, EmptyState, QueryView, Skeleton, TimeAgo } from "@/components/ui";
import { useTRPC } from "@/components/trpc";
import { CanarySplit } from "./canary-split";
import { EnvironmentBadge, compareEnvironments } from "./environment-badge";
import { deployedColumnTitle, deployedCountLabel } from "./deployed-kinds";
import { deploymentMatrix } from "./deployment-matrix";
import { EnvironmentsIcon } from "./environments-icon";
import { entryName, entryRevisionHref, environmentPath } from "./paths";
import type { Deployment, EnvironmentOverview } from "./types";

/** What runs where: one card per environment, then a matrix of everything deployed against every environment. */
export function EnvironmentsOverview() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.environments.overview.queryOptions());
  const environments = useMemo(() => [...(overview.data ?? [])].sort(compareEnvironments), [overview.data]);
  const agents = useMemo(() => deploymentMatrix(environments), [environments]);

  return (
    <QueryView
      query={overview}
      pending={
        <div role="status" aria-label="Loading environments" className="flex flex-col gap-6">
          <div className="grid gap-4 md:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-32 w-full rounded-xl" />
            ))}
          </div>
          <Skeleton className="h-48 w-full rounded-xl" />
        </div>
      }
      errorTitle="Could not load the environments"
    >
      {() => (
        <div className="flex flex-col gap-6">
          <div className="grid gap-4 md:grid-cols-3">
            {environments.map((env) => (
              <EnvironmentSummary key={env.id} env={env} />
            ))}
          </div>

          <section
            aria-labelledby="deployed-agents-title"
            className="overflow-hidden rounded-xl border border-line bg-surface shadow-xs"
          >
            <header className="border-b border-line px-5 py-4">
              <h2 id="deployed-agents-title" className="text-sm font-semibold">
                What runs where
              </h2>
              <p className="text-sm text-muted">
                Each deployed agent (or application, evaluator) and the revision every environment runs for it.
              </p>
            </header>
            {agents.length === 0 ? (
              <EmptyState
                icon={<EnvironmentsIcon />}
                title="Nothing is deployed yet"
                description="Open an agent, choose its Deploy tab, and deploy a revision to development, staging or production."
                action={
                  <Link href="/agents" className="text-sm text-accent hover:underline">
                    Go to agents
                  </Link>
                }
              />
            ) : (
              <div className="overflow-x-auto">
                <table className="w-full border-collapse text-left text-sm" aria-label="What each environment runs">
                  <thead className="border-b border-line bg-surface-muted/60">
                    <tr>
                      <th
                        scope="col"
                        className="px-5 py-2 text-xs font-medium text-muted"
                        data-testid="deployed-column"
                      >
                        {deployedColumnTitle(agents.map((row) => row.entry))}
                      </th>
                      {environments.map((env) => (
                        <th key={env.id} scope="col" className="px-4 py-2 text-xs font-medium text-muted">
                          <Link href={environmentPath(env.slug)} className="hover:text-foreground hover:underline">
                            {env.slug}
                          </Link>
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-line">
                    {agents.map((row) => (
                      <tr key={row.key} className="h-12 hover:bg-surface-muted/40" data-testid="deployed-agent-row">
                        <th scope="row" className="px-5 py-2 font-medium">
                          <span className="flex flex-col">
                            {row.entry.kind !== "workflow" && (
                              <span className="text-xs font-normal text-muted capitalize">{row.entry.kind}</span>
                            )}
                            {row.entry.kind === "workflow" ? (
                              <Link
                                href={agentPaths.editor(row.entry.artifact.id, row.entry.variant.id)}
                                className="hover:underline"
                              >
                                {entryName(row.entry)}
                              </Link>
                            ) : (
                              entryName(row.entry)
                            )}
                            <span className="font-mono text-xs font-normal text-muted">{row.entry.artifact.slug}</span>
                          </span>
                        </th>
                        {environments.map((env) => (
                          <td key={env.id} className="px-4 py-2">
                            <Cell deployment={row.cells.get(env.slug)} environmentId={env.id} />
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>
      )}
    </QueryView>
  );
}

function Cell({ deployment, environmentId }: { deployment?: Deployment; environmentId: string }) {
  if (!deployment) return <span className="text-muted/60">—</span>;
  const href = entryRevisionHref(deployment);
  return (
    <span className="flex flex-col">
      <span className="flex items-center gap-1.5">
        {href ? (
          <Link href={href} className="font-mono text-sm font-semibold hover:underline">
            v{deployment.revision.version}
          </Link>
        ) : (
          <span className="font-mono text-sm font-semibold">v{deployment.revision.version}</span>
        )}
        <span className="font-mono text-xs text-muted">{deployment.variant.slug}</span>
      </span>
      <CanarySplit environmentId={environmentId} baselineRevisionId={deployment.revision.id} />
      {deployment.since && (
        <span className="text-xs text-muted">
          <TimeAgo iso={deployment.since.date} />
        </span>
      )}
    </span>
  );
}

function EnvironmentSummary({ env }: { env: EnvironmentOverview }) {
  const last = env.revision;
  return (
    <Link
      href={environmentPath(env.slug)}
      data-testid={`environment-summary-${env.slug}`}
      className={cn(
        "group flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 shadow-xs transition-colors hover:border-line-strong",
        "outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-background",
      )}
    >
      <span className="flex items-center justify-between gap-2">
        <span className="flex items-center gap-2">
          <EnvironmentBadge slug={env.slug} />
          {env.name !== env.slug && <span className="text-sm font-medium">{env.name}</span>}
        </span>
        <span className="text-xs text-muted group-hover:text-foreground">Open →</span>
      </span>
      <span className="text-sm">
        <span className="text-2xl font-semibold tabular-nums">{env.deployments.length}</span>{" "}
        <span className="text-muted" data-testid="deployed-summary">
          {deployedCountLabel(env.deployments)}
        </span>
      </span>
      <span className="flex min-h-5 flex-wrap items-center gap-1 text-xs text-muted">
        {last ? (
          <>
            Last deploy <TimeAgo iso={last.date} /> by <Author id={last.author} />
          </>
        ) : (
          "No deploys yet"
        )}
      </span>
    </Link>
  );
}
