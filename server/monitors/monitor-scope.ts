import { queryWindowTotals } from "@/server/analytics";
import { listApiKeys } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { catalogPrice } from "@/server/pricing";
import { activeArtifacts, domainKeys, Lookup, revisionNames } from "@/server/versioning";
import { isUuid } from "@/shared/ids";
import type { ScopeKind } from "./monitor-input";

/** How far back traces are looked at for a value no entity of the project names (tracing from outside). */
const SEEN_LOOKBACK_MS = 30 * 86_400_000;

const NOUNS: Record<Exclude<ScopeKind, "project">, string> = {
  agent: "agent (by id or slug)",
  environment: "environment (by slug or id)",
  revision: "revision",
  model: "model",
  api_key: "API key",
};

/**
 * The value a scope's roll-up dimension carries for what the caller named. The roll-ups key an
 * agent by its id and an environment by its slug: an agent named by its slug (or an environment
 * by its id) is stored as the value its runs carry, else the monitor would read "no data" forever.
 * A value that names nothing of the project and that no run of the last 30 days carries is refused.
 */
export async function resolveScopeValue(
  app: AppContext,
  projectId: string,
  kind: Exclude<ScopeKind, "project">,
  value: string,
): Promise<ResolvedScope> {
  const known = await entityValue(app, projectId, kind, value);
  if (known) return known;
  if (await tracesCarry(app, projectId, kind, value)) return { value };
  throw new BadRequestError(
    `monitor.scope.value "${value}" names no ${NOUNS[kind]} of this project, and no run of the last 30 days carries it`,
    "invalid_monitor",
    [{ path: "monitor.scope.value", message: `names no ${NOUNS[kind]} of this project` }],
  );
}

/** The value the roll-ups carry, and what a person calls it (an agent's or key's name), for lists and messages. */
export interface ResolvedScope {
  value: string;
  label?: string;
}

/** The project's agent or environment whose id or slug this is (not archived). */
async function artifactBy(app: AppContext, projectId: string, domain: "workflows" | "environments", value: string) {
  const all = await activeArtifacts(app.db, projectId, domain);
  return all.find((a) => a.id === value || a.slug === value);
}

async function entityValue(
  app: AppContext,
  projectId: string,
  kind: ScopeKind,
  value: string,
): Promise<ResolvedScope | undefined> {
  switch (kind) {
    case "agent": {
      const agent = await artifactBy(app, projectId, "workflows", value);
      return agent && { value: agent.id, label: agent.name || agent.slug };
    }
    case "environment": {
      const environment = await artifactBy(app, projectId, "environments", value);
      return environment && { value: environment.slug, label: environment.name || environment.slug };
    }
    case "revision": {
      if (!isUuid(value)) return undefined;
      const revision = await new Lookup(app.db, projectId, domainKeys("workflows"))
        .revision({ id: value })
        .catch((error) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
      if (!revision) return undefined;
      const names = await revisionNames(app.db, revision);
      return { value: revision.id, label: `${names.artifact} v${names.version}` };
    }
    case "api_key": {
      const key = (await listApiKeys(app.db, projectId)).find((k) => k.id === value);
      return key && { value: key.id, label: `${key.name ?? "key"} (${key.prefix}…)` };
    }
    case "model":
      // A model of the price catalog may be watched before its first run.
      return catalogPrice(undefined, value, app.now()) ? { value } : undefined;
    default:
      return undefined;
  }
}

/** Whether some span of the project's last 30 days carries the value (read from the roll-ups). */
async function tracesCarry(app: AppContext, projectId: string, kind: Exclude<ScopeKind, "project">, value: string) {
  const newest = app.now();
  const [totals] = await queryWindowTotals(app.db, [
    {
      projectId,
      focus: "span",
      filter: { field: kind, value },
      oldest: new Date(newest.getTime() - SEEN_LOOKBACK_MS),
      newest,
    },
  ]);
  return (totals?.metrics.count ?? 0) > 0;
}
