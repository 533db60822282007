"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { useAgentDeployments } from "@/components/deploy/use-agent-deployments";
import { useVariantLabels } from "@/components/agents/use-variant-labels";
import { CodeView, readableJson } from "@/components/diff";
import { stableStringify } from "@/shared/stable-json";
import { EnvironmentBadge } from "@/components/environments/environment-badge";
import { ImproveButton } from "@/components/improve";
import { useTRPC } from "@/components/trpc";
import { Badge, Button, buttonClass, CopyButton, QueryError, Skeleton, TimeAgo } from "@/components/ui";
import { Author } from "./author";
import { ForkDialog } from "./fork-dialog";
import { agentPaths } from "./paths";
import { RestoreDialog } from "./restore-dialog";
import { TabContainer } from "./tab-container";
import { templateOf, variantIdOf, variantSlugOf, versionLabel, type AgentRevision } from "./types";
import { useHotkeys } from "@/components/ui/use-hotkeys";
import { useVariantHistory } from "./use-variant-history";

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** One revision, read-only: who, when, why, where it runs, its template; and what can be done from it. */
export function RevisionView({
  agentId,
  variantId,
  revisionId,
}: {
  agentId: string;
  variantId: string;
  revisionId: string;
}) {
  const trpc = useTRPC();
  const revision = useQuery(trpc.agents.revision.queryOptions({ id: revisionId }));
  const data = revision.data;

  return (
    <TabContainer>
      <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-muted">
        <Link href={agentPaths.history(agentId, variantId)} className="hover:text-foreground hover:underline">
          History
        </Link>
        <span aria-hidden="true">/</span>
        <span className="font-medium text-foreground">{data ? versionLabel(data) : "…"}</span>
      </nav>

      {revision.isPending ? (
        <div role="status" aria-label="Loading revision" className="flex flex-col gap-4">
          <Skeleton className="h-7 w-72" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-96 w-full" />
        </div>
      ) : revision.isError ? (
        <QueryError
          title="Could not load this revision"
          error={revision.error}
          onRetry={() => revision.refetch()}
          retrying={revision.isFetching}
        />
      ) : (
        <RevisionBody agentId={agentId} variantId={variantId} data={revision.data} />
      )}
    </TabContainer>
  );
}

function RevisionBody({ agentId, variantId, data }: { agentId: string; variantId: string; data: AgentRevision }) {
  const router = useRouter();
  const { revisions } = useVariantHistory(variantId);
  const { byRevision } = useAgentDeployments(agentId);
  const variantName = useVariantLabels(agentId);
  const [restoring, setRestoring] = useState(false);
  const [forking, setForking] = useState(false);

  const latest = revisions[0];
  const isLatest = latest ? latest.id === data.id : false;
  const previous = revisions.find((r) => Number(r.version) === Number(data.version) - 1 && r.id !== data.id);
  // Copy gives JSON; the view shows long texts as text blocks, like the diff.
  const template = templateOf(data);
  const json = template === undefined ? "" : stableStringify(template, 2);
  const readable = readableJson(template);

  useHotkeys({
    d: () => previous && router.push(agentPaths.diff(agentId, variantId, previous.id, data.id)),
    h: () => router.push(agentPaths.history(agentId, variantId)),
  });

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <h2 className="flex flex-wrap items-center gap-2 text-lg font-semibold tracking-tight">
            <span className="font-mono">{versionLabel(data)}</span>
            <span className="font-normal text-muted">·</span>
            <span className={data.message ? "" : "font-normal text-muted italic"}>{data.message ?? "No message"}</span>
          </h2>
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge tone="neutral">Read-only</Badge>
            {isLatest && <Badge tone="accent">Latest</Badge>}
            {(byRevision.get(data.id) ?? []).map((env) => (
              <EnvironmentBadge key={env} slug={env} />
            ))}
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {previous && (
            <Link href={agentPaths.diff(agentId, variantId, previous.id, data.id)} className={buttonClass()}>
              Compare with {versionLabel(previous)}
            </Link>
          )}
          {!isLatest && latest && (
            <Link href={agentPaths.diff(agentId, variantId, data.id, latest.id)} className={buttonClass()}>
              Compare with latest
            </Link>
          )}
          <Button
            onClick={() => setRestoring(true)}
            disabled={isLatest}
            title={isLatest ? "Already the latest revision" : undefined}
          >
            Restore
          </Button>
          <Button onClick={() => setForking(true)}>Fork from here</Button>
          <ImproveButton
            revisionId={data.id}
            label={`${versionLabel(data)}${data.message ? ` · ${data.message}` : ""}`}
          />
          <Link href={agentPaths.deploy(agentId, variantId, data.id)} className={buttonClass({ variant: "primary" })}>
            Deploy…
          </Link>
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-x-6 gap-y-4 rounded-xl border border-line bg-surface px-5 py-4 text-sm shadow-xs md:grid-cols-4">
        <Meta label="Author">
          <Author id={data.author} />
        </Meta>
        <Meta label="Committed">
          <span className="flex flex-col">
            <time dateTime={data.date} title={new Date(data.date).toUTCString()}>
              {dateFormat.format(new Date(data.date))}
            </time>
            <span className="text-xs text-muted">
              <TimeAgo iso={data.date} />
            </span>
          </span>
        </Meta>
        <Meta label="Variant">
          <Link
            href={agentPaths.history(agentId, variantIdOf(data) ?? variantId)}
            className="font-mono text-xs hover:underline"
          >
            {variantName(variantIdOf(data), variantSlugOf(data)) ?? "—"}
          </Link>
        </Meta>
        <Meta label="Revision id">
          <span className="flex min-w-0 items-center gap-1">
            <code className="truncate font-mono text-xs text-muted" title={data.id}>
              {data.id}
            </code>
            <CopyButton value={data.id} label="Copy revision id" size="sm" variant="ghost" />
          </span>
        </Meta>
      </dl>

      <section
        aria-labelledby="template-title"
        className="overflow-hidden rounded-xl border border-line bg-surface shadow-xs"
      >
        <header className="flex items-center justify-between gap-3 border-b border-line px-5 py-3">
          <div className="flex flex-col">
            <h3 id="template-title" className="text-sm font-semibold">
              Template
            </h3>
            <p className="text-xs text-muted">
              <code className="font-mono">data.parameters.agent</code>, keys sorted, long texts between{" "}
              <code className="font-mono">"""</code>
            </p>
          </div>
          <CopyButton value={json} label="Copy template JSON" size="sm" />
        </header>
        {json ? (
          <CodeView text={readable} label={`Template of ${versionLabel(data)}`} className="py-2" />
        ) : (
          <p className="px-5 py-6 text-sm text-muted">This revision carries no agent template.</p>
        )}
      </section>

      <RestoreDialog
        revision={restoring ? data : null}
        latestVersion={latest?.version}
        onClose={() => setRestoring(false)}
        onRestored={() => router.push(agentPaths.history(agentId, variantId))}
      />
      <ForkDialog agentId={agentId} revision={forking ? data : null} onClose={() => setForking(false)} />
    </>
  );
}

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
