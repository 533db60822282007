import type { AgentDeployment } from "./types";
import { VersionBadge } from "./version-badge";

/**
 * What one environment runs of an agent: its version, green when it is the latest, plain when it
 * is behind; the variant is named when it is not the default one.
 */
export function DeploymentCell({
  deployments,
  latestVersion,
  environment,
}: {
  deployments: AgentDeployment[];
  latestVersion?: string;
  environment: string;
}) {
  if (deployments.length === 0) {
    return (
      <span className="text-muted" aria-label={`Not deployed to ${environment}`}>
        —
      </span>
    );
  }
  return (
    <span className="flex flex-wrap items-center gap-1">
      {deployments.map((d) => {
        const onDefault = d.variantSlug === "default";
        const current = onDefault && d.version === latestVersion;
        const title = `${environment} runs v${d.version}${onDefault ? "" : ` of variant ${d.variantSlug}`}${current ? " (latest)" : ""}`;
        return (
          <span key={d.key} className="inline-flex items-center gap-1" aria-label={title}>
            <VersionBadge version={d.version} tone={current ? "success" : "neutral"} title={title} />
            {!onDefault && <span className="max-w-20 truncate font-mono text-xs text-muted">{d.variantSlug}</span>}
          </span>
        );
      })}
    </span>
  );
}
