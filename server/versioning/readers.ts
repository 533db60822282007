import { and, asc, desc, eq, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import type { ArtifactRecord, RevisionRecord } from "./records";
import { selectRevisions } from "./revision-select";

/**
 * Plain reads of the versioning tables for other areas, which may not name those tables
 * themselves (each area owns its tables). Reads here emit no read events: they serve pages and
 * checks of other areas, not reads a subscriber asked about.
 */

export interface ArtifactName {
  id: string;
  domain: string;
  slug: string;
  name: string;
  deletedAt: Date | null;
}

/** The artifacts with these ids in the project (archived ones too), optionally of one domain only. */
export async function artifactNames(
  db: Executor,
  projectId: string,
  ids: string[],
  domain?: string,
): Promise<ArtifactName[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: artifacts.id,
      domain: artifacts.domain,
      slug: artifacts.slug,
      name: artifacts.name,
      deletedAt: artifacts.deletedAt,
    })
    .from(artifacts)
    .where(
      and(
        eq(artifacts.projectId, projectId),
        inArray(artifacts.id, [...new Set(ids)]),
        domain ? eq(artifacts.domain, domain) : undefined,
      ),
    );
}

/** Every artifact of a domain that is not archived, oldest first (unpaged: for small domains, like environments). */
export async function activeArtifacts(db: Executor, projectId: string, domain: string): Promise<ArtifactRecord[]> {
  return db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.projectId, projectId), eq(artifacts.domain, domain), isNull(artifacts.deletedAt)))
    .orderBy(asc(artifacts.id));
}

/** A variant's revisions with their data, newest first, from `before` (a revision id, exclusive). */
export async function revisionsOfVariant(
  db: Executor,
  projectId: string,
  variantId: string,
  page: { before?: string; limit: number },
): Promise<RevisionRecord[]> {
  return (await selectRevisions(db)
    .where(
      and(
        eq(revisions.projectId, projectId),
        eq(revisions.variantId, variantId),
        page.before ? lt(revisions.id, page.before) : undefined,
      ),
    )
    .orderBy(desc(revisions.id))
    .limit(page.limit)) as RevisionRecord[];
}

/** Locks a variant's row until the transaction ends: commits of that variant wait behind it. */
export async function lockVariantRow(tx: Executor, variantId: string): Promise<void> {
  await tx.select({ id: variants.id }).from(variants).where(eq(variants.id, variantId)).for("update");
}

/** The slugs every variant of an artifact takes (archived ones too). */
export async function variantSlugs(db: Executor, artifactId: string): Promise<string[]> {
  const rows = await db.select({ slug: variants.slug }).from(variants).where(eq(variants.artifactId, artifactId));
  return rows.map((row) => row.slug);
}

const JSON_KEY = /^[A-Za-z0-9_]+$/;

/**
 * A condition for `queryArtifacts({ where })`: the artifact has a revision whose data holds a value
 * at `path` (`["parameters", "agent"]`: what makes a workflow an agent).
 */
export function hasRevisionData(...path: string[]): SQL {
  if (path.length === 0 || !path.every((key) => JSON_KEY.test(key)))
    throw new Error(`hasRevisionData: plain keys only, got ${JSON.stringify(path)}`);
  const at = sql.raw(path.map((key) => ` -> '${key}'`).join(""));
  return sql`exists (select 1 from ${revisions} r where r.artifact_id = ${artifacts.id} and r.data${at} is not null)`;
}
