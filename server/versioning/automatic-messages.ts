import { eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { artifacts, variants } from "@/server/db/schema";

/**
 * The commit messages the server writes when a person gives none. They name things the way the
 * playground shows them (names and versions); ids stay in the revision's references, where a
 * program reads them.
 */

export interface RevisionNames {
  /** The artifact's name (an agent's "Support triage"), else its slug. */
  artifact: string;
  /** The variant's name, else its slug. */
  variant: string;
  version: number | string;
}

/** The default variant is the agent itself; only another variant needs naming. */
const ofVariant = (names: RevisionNames) => (names.variant === "default" ? "" : ` (${names.variant})`);

export const restoreMessage = (source: Pick<RevisionNames, "version">) => `Restore v${source.version}`;

export const deployMessage = (source: RevisionNames, environment: string) =>
  `Deploy ${source.artifact} v${source.version}${ofVariant(source)} to ${environment}`;

/** Names of a revision's artifact and variant, read whether or not they are archived. */
export async function revisionNames(
  db: Executor,
  revision: { artifactId: string; variantId: string; version: number | string },
): Promise<RevisionNames> {
  const [artifact] = await db
    .select({ name: artifacts.name, slug: artifacts.slug })
    .from(artifacts)
    .where(eq(artifacts.id, revision.artifactId));
  const [variant] = await db
    .select({ name: variants.name, slug: variants.slug })
    .from(variants)
    .where(eq(variants.id, revision.variantId));
  return {
    artifact: artifact?.name || artifact?.slug || "",
    variant: variant?.name || variant?.slug || "",
    version: revision.version,
  };
}
