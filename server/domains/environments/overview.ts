import type { Executor } from "@/server/db";
import { activeArtifacts, latestRevisionOrNull, Lookup, type RevisionRecord, type Scope } from "@/server/versioning";
import type { ReferenceMap } from "./references-diff";
import { environmentsSpec } from "./spec";

export interface EnvironmentState {
  id: string;
  slug: string;
  name: string;
  variantId: string;
  /** The environment's newest revision; absent before its first deploy. */
  revision?: RevisionRecord;
  references: ReferenceMap;
}

/** Every active environment of the project with what it runs now. */
export async function listEnvironmentStates(db: Executor, scope: Scope): Promise<EnvironmentState[]> {
  const lookup = new Lookup(db, scope.projectId, environmentsSpec.keys);
  const envs = await activeArtifacts(db, scope.projectId, environmentsSpec.keys.name);
  const states = await Promise.all(
    envs.map(async (env) => {
      // An environment created without data has no variant yet: it runs nothing and has no history.
      const variant = await lookup.defaultVariantIfAny(env);
      if (!variant) return undefined;
      const revision = await latestRevisionOrNull(db, variant.id, variant.headVersion);
      return {
        id: env.id,
        slug: env.slug,
        name: env.name,
        variantId: variant.id,
        revision,
        references: (revision?.data?.references ?? {}) as ReferenceMap,
      };
    }),
  );
  return states.filter((state) => state !== undefined);
}

export interface DeployedRevision {
  environment: string;
  key: string;
  revisionId: string;
  version: string;
  variantId: string;
  variantSlug: string;
}

/** Which revision of an artifact each environment runs, from the environment states. */
export function deploymentsOf(states: EnvironmentState[], one: string, artifactId: string): DeployedRevision[] {
  const out: DeployedRevision[] = [];
  for (const state of states) {
    for (const [key, entry] of Object.entries(state.references)) {
      const artifact = entry[one] as { id?: string } | undefined;
      const variant = entry[`${one}_variant`] as { id: string; slug: string } | undefined;
      const revision = entry[`${one}_revision`] as { id: string; version: string } | undefined;
      if (artifact?.id !== artifactId || !revision || !variant) continue;
      out.push({
        environment: state.slug,
        key,
        revisionId: revision.id,
        version: revision.version,
        variantId: variant.id,
        variantSlug: variant.slug,
      });
    }
  }
  return out;
}
