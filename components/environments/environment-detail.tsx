"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Author } from "@/components/history/author";
import { agentPaths } from "@/components/history/paths";
import {
  type BadgeTone,
  buttonClass,
  cn,
  EmptyState,
  Notice,
  QueryError,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableColumnHeader,
  TableHeaderGroup,
  TableRow,
  TimeAgo,
} from "@/components/ui";
import { useTRPC } from "@/components/trpc";
import { CanarySplit } from "./canary-split";
import { CanarySection } from "./canary-section";
import { DeployLog } from "./deploy-log";
import { environmentTone } from "./environment-badge";
import { EnvironmentsIcon } from "./environments-icon";
import { deployedColumnTitle, deployedSummary } from "./deployed-kinds";
import { entryName, entryRevisionHref } from "./paths";

const dotClass: Record<BadgeTone, string> = {
  neutral: "bg-muted",
  accent: "bg-accent",
  success: "bg-success",
  warning: "bg-warning",
  danger: "bg-danger",
};

/** One environment: what it runs now (agents, applications, evaluators) and its deploy history. */
export function EnvironmentDetail({ slug }: { slug: string }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.environments.overview.queryOptions());
  const env = overview.data?.find((e) => e.slug === slug);

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-muted">
        <Link href="/environments" className="hover:text-foreground hover:underline">
          Environments
        </Link>
        <span aria-hidden="true">/</span>
        <span className="font-medium text-foreground">{slug}</span>
      </nav>

      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1 className="flex items-center gap-2.5 text-xl font-semibold tracking-tight">
            <span aria-hidden="true" className={cn("size-2.5 rounded-full", dotClass[environmentTone(slug)])} />
            {env?.name ?? slug}
          </h1>
          <p className="text-sm text-muted">
            {env?.revision ? (
              <>
                Environment revision <span className="font-mono">#{env.revision.version}</span>, last changed{" "}
                <TimeAgo iso={env.revision.date} /> by <Author id={env.revision.author} className="align-middle" />
              </>
            ) : (
              "What this environment runs, and every deploy that changed it."
            )}
          </p>
        </div>
      </div>

      {overview.isPending ? (
        <Skeleton className="h-40 w-full rounded-xl" />
      ) : overview.isError ? (
        <QueryError
          title="Could not load the environment"
          error={overview.error}
          onRetry={() => overview.refetch()}
          retrying={overview.isFetching}
        />
      ) : !env ? (
        <Notice
          tone="danger"
          title={`No environment named “${slug}”`}
          action={
            <Link href="/environments" className={buttonClass({ size: "sm" })}>
              All environments
            </Link>
          }
        >
          It may have been archived, or the link has a typo.
        </Notice>
      ) : (
        <>
          <CanarySection environmentId={env.id} slug={slug} />
          <section
            aria-labelledby="running-title"
            className="overflow-hidden rounded-xl border border-line bg-surface shadow-xs"
          >
            <header className="border-b border-line px-5 py-4">
              <h2 id="running-title" className="text-sm font-semibold">
                Running now
              </h2>
              <p className="text-sm text-muted">
                {deployedSummary(env.deployments)}: the revision {slug} resolves for each, and the deploy that put it
                there.
              </p>
            </header>
            {env.deployments.length === 0 ? (
              <EmptyState
                icon={<EnvironmentsIcon />}
                title={`Nothing runs in ${slug} yet`}
                description="Deploy a revision from an agent's Deploy tab; it will show here."
              />
            ) : (
              <Table aria-label={`Running in ${slug}`} stacked>
                <TableHeaderGroup>
                  <tr>
                    <TableColumnHeader>{deployedColumnTitle(env.deployments)}</TableColumnHeader>
                    <TableColumnHeader>Version</TableColumnHeader>
                    <TableColumnHeader>Deployed</TableColumnHeader>
                    <TableColumnHeader>Message</TableColumnHeader>
                    <TableColumnHeader>
                      <span className="sr-only">Actions</span>
                    </TableColumnHeader>
                  </tr>
                </TableHeaderGroup>
                <TableBody>
                  {env.deployments.map((d) => {
                    const href = entryRevisionHref(d);
                    const isAgent = d.kind === "workflow";
                    return (
                      <TableRow key={d.key} data-testid="running-row">
                        <TableCell
                          className="font-medium whitespace-normal"
                          label={deployedColumnTitle(env.deployments)}
                        >
                          <span className="flex max-w-md min-w-40 flex-col whitespace-normal">
                            {isAgent ? (
                              <Link
                                href={agentPaths.history(d.artifact.id, d.variant.id)}
                                className="hover:underline"
                                title="Open the agent's history"
                              >
                                {entryName(d)}
                              </Link>
                            ) : (
                              entryName(d)
                            )}
                            <span
                              className="font-mono text-xs font-normal break-all text-muted"
                              title={`Reference key ${d.key}`}
                            >
                              {d.artifact.slug}
                            </span>
                          </span>
                        </TableCell>
                        <TableCell label="Version" className="whitespace-normal">
                          <span className="flex flex-wrap items-center gap-1.5">
                            {href ? (
                              <Link href={href} className="font-mono font-semibold hover:underline">
                                v{d.revision.version}
                              </Link>
                            ) : (
                              <span className="font-mono font-semibold">v{d.revision.version}</span>
                            )}
                            <span className="rounded border border-line px-1 font-mono text-[11px] text-muted">
                              {d.variant.slug}
                            </span>
                          </span>
                          <CanarySplit environmentId={env.id} baselineRevisionId={d.revision.id} />
                        </TableCell>
                        <TableCell className="whitespace-normal text-muted" label="Deployed">
                          {d.since ? (
                            <span className="flex flex-wrap items-center gap-x-2">
                              <TimeAgo iso={d.since.date} />
                              <span aria-hidden="true">·</span>
                              <Author id={d.since.author} />
                            </span>
                          ) : (
                            "—"
                          )}
                        </TableCell>
                        <TableCell className="text-muted" title={d.since?.message ?? undefined} label="Message">
                          <span className="block max-w-48 truncate">{d.since?.message ?? "—"}</span>
                        </TableCell>
                        <TableCell className="text-right">
                          {isAgent && (
                            <Link
                              href={agentPaths.deploy(d.artifact.id, d.variant.id)}
                              className={buttonClass({ size: "sm", variant: "ghost" })}
                              aria-label={`Deploy ${entryName(d)}`}
                            >
                              Deploy…
                            </Link>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </section>

          <section
            aria-labelledby="deploys-title"
            className="overflow-hidden rounded-xl border border-line bg-surface shadow-xs"
          >
            <header className="border-b border-line px-5 py-4">
              <h2 id="deploys-title" className="text-sm font-semibold">
                Deploy history
              </h2>
              <p className="text-sm text-muted">
                Every deploy to {slug}, newest first: who, when, why, and what it changed.
              </p>
            </header>
            <DeployLog environment={slug} emptyText={`No deploys to ${slug} yet.`} />
          </section>
        </>
      )}
    </div>
  );
}
