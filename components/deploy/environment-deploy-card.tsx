"use client";

import Link from "next/link";
import { CanarySplit } from "@/components/environments/canary-split";
import { DeployLog } from "@/components/environments/deploy-log";
import { EnvironmentBadge } from "@/components/environments/environment-badge";
import { environmentPath } from "@/components/environments/paths";
import { Author } from "@/components/history/author";
import { agentPaths } from "@/components/history/paths";
import { variantIdOf, versionLabel, type AgentRevision } from "@/components/history/types";
import { MemberButton } from "@/components/shell/member-button";
import { TimeAgo } from "@/components/ui";
import type { AgentEnvironment } from "./use-agent-deployments";

/**
 * One environment on an agent's Deploy tab: what runs now, a deploy button, and recent deploys of
 * this agent. Its three parts sit on the parent grid's rows (subgrid), so side by side the
 * cards' buttons and logs line up whatever each one holds.
 */
export function EnvironmentDeployCard({
  agentId,
  target,
  selected,
  onDeploy,
}: {
  agentId: string;
  target: AgentEnvironment;
  selected?: AgentRevision;
  onDeploy: () => void;
}) {
  const { environment, deployment } = target;
  const titleId = `env-${environment.slug}-title`;
  const runsSelected = deployment && selected && deployment.revision.id === selected.id;
  return (
    <section
      aria-labelledby={titleId}
      data-testid={`environment-card-${environment.slug}`}
      className="row-span-3 grid grid-rows-subgrid gap-0 overflow-hidden rounded-xl border border-line bg-surface shadow-xs"
    >
      <header className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
        <h3 id={titleId} className="flex items-center gap-2 text-sm font-semibold">
          <EnvironmentBadge slug={environment.slug} />
          <span className="sr-only">{environment.name}</span>
        </h3>
        <Link
          href={environmentPath(environment.slug)}
          className="text-xs text-muted hover:text-foreground hover:underline"
        >
          Open environment
        </Link>
      </header>

      <div className="flex flex-1 flex-col gap-3 px-4 py-4">
        <span className="text-xs font-medium text-muted">Running now</span>
        {deployment ? (
          <div className="flex flex-col gap-1.5" data-testid="running-now">
            <div className="flex items-baseline gap-2">
              <Link
                href={agentPaths.revision(agentId, deployment.variant.id, deployment.revision.id)}
                className="font-mono text-2xl font-semibold tracking-tight hover:underline"
                data-testid="running-version"
              >
                {versionLabel(deployment.revision)}
              </Link>
              <span className="rounded border border-line px-1.5 font-mono text-xs text-muted">
                {deployment.variant.slug}
              </span>
            </div>
            <CanarySplit environmentId={environment.id} baselineRevisionId={deployment.revision.id} />
            {deployment.since ? (
              <p className="flex flex-wrap items-center gap-1 text-xs text-muted">
                Deployed <TimeAgo iso={deployment.since.date} /> by <Author id={deployment.since.author} />
              </p>
            ) : null}
            {deployment.since?.message && (
              <p className="line-clamp-2 text-xs text-muted italic">“{deployment.since.message}”</p>
            )}
          </div>
        ) : (
          <div className="flex flex-col gap-1" data-testid="running-now">
            <span className="text-2xl font-semibold tracking-tight text-muted/60">—</span>
            <p className="text-xs text-muted">This agent has never been deployed to {environment.slug}.</p>
          </div>
        )}

        <div className="mt-auto flex flex-col gap-1.5 pt-2">
          <MemberButton
            variant={runsSelected ? "secondary" : "primary"}
            className="w-full"
            disabled={!selected}
            viewerTitle="Viewers cannot deploy"
            onClick={onDeploy}
            aria-label={
              selected ? `Deploy ${versionLabel(selected)} to ${environment.slug}` : `Deploy to ${environment.slug}`
            }
          >
            {selected
              ? runsSelected
                ? `Redeploy ${versionLabel(selected)}`
                : `Deploy ${versionLabel(selected)} to ${environment.slug}`
              : "Choose a revision"}
          </MemberButton>
          {/* Always takes its line, so the cards' buttons stay aligned. */}
          <span className="flex h-4 justify-center text-xs">
            {deployment && selected && !runsSelected && (
              <Link
                href={agentPaths.diff(
                  agentId,
                  variantIdOf(selected) ?? deployment.variant.id,
                  deployment.revision.id,
                  selected.id,
                )}
                className="text-accent hover:underline"
              >
                Compare {versionLabel(deployment.revision)} with {versionLabel(selected)}
              </Link>
            )}
          </span>
        </div>
      </div>

      <div className="border-t border-line bg-surface-muted/30">
        <h4 className="px-4 pt-3 pb-1 text-xs font-medium text-muted">Deploys of this agent</h4>
        <DeployLog environment={environment.slug} artifactId={agentId} pageSize={5} compact emptyText="None yet." />
      </div>
    </section>
  );
}
