import { eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { exposures } from "@/server/db/schema";
import { DOMAIN_SPECS, listEnvironmentStates } from "@/server/domains";
import { Lookup, type Scope } from "@/server/versioning";
import { exposedName, type ExposureKind } from "./exposure-input";

/** An exposed entry that its environment runs now: what a client can see and call. */
export interface ExposedTarget {
  kind: ExposureKind;
  /** The tool or prompt name: the owner's, or `<slug>@<environment>`. */
  name: string;
  slug: string;
  environment: string;
  /** The agent's or application's name and description, for the tool's or prompt's description. */
  title: string;
  description: string | null;
  /** The revision the environment's deploy pointer (`<slug>.revision`) names now. */
  revisionId: string;
  version: string;
  variantSlug: string;
}

const REVISION_FIELD: Record<ExposureKind, string> = { agent: "workflow", prompt: "application" };

/**
 * Every exposed entry whose environment runs it under its own key now, in the owner's order: an
 * entry whose agent is not (or no longer) deployed there is left out, so the list follows deploys.
 * A project that exposes nothing costs one query.
 */
export async function exposedNow(db: Executor, scope: Scope): Promise<ExposedTarget[]> {
  const rows = await db.select().from(exposures).where(eq(exposures.projectId, scope.projectId)).orderBy(exposures.id);
  if (!rows.length) return [];
  const states = new Map((await listEnvironmentStates(db, scope)).map((state) => [state.slug, state]));
  const found: Array<Omit<ExposedTarget, "title" | "description"> & { artifactId: string }> = [];
  for (const row of rows) {
    const kind = row.kind as ExposureKind;
    const entry = states.get(row.environment)?.references[`${row.slug}.revision`];
    const one = REVISION_FIELD[kind];
    const artifact = entry?.[one] as { id?: string; slug?: string } | undefined;
    const variant = entry?.[`${one}_variant`] as { slug?: string } | undefined;
    const revision = entry?.[`${one}_revision`] as { id?: string; version?: string } | undefined;
    if (!artifact?.id || !revision?.id) continue;
    found.push({
      kind,
      name: exposedName(row),
      slug: row.slug,
      environment: row.environment,
      revisionId: revision.id,
      version: String(revision.version ?? ""),
      variantSlug: variant?.slug ?? "",
      artifactId: artifact.id,
    });
  }
  if (!found.length) return [];
  const lookups = {
    agent: new Lookup(db, scope.projectId, DOMAIN_SPECS.workflows.keys),
    prompt: new Lookup(db, scope.projectId, DOMAIN_SPECS.applications.keys),
  };
  const headers = new Map(
    await Promise.all(
      found.map(async (f) => [f.artifactId, await lookups[f.kind].artifact({ id: f.artifactId })] as const),
    ),
  );
  return found.map(({ artifactId, ...target }) => ({
    ...target,
    title: headers.get(artifactId)?.name ?? target.slug,
    description: headers.get(artifactId)?.description ?? null,
  }));
}
