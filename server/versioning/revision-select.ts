import { eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";

const metadataColumns = {
  id: revisions.id,
  slug: revisions.slug,
  version: revisions.version,
  message: revisions.message,
  authorId: revisions.authorId,
  createdAt: revisions.createdAt,
  deletedAt: revisions.deletedAt,
  artifactId: revisions.artifactId,
  artifactSlug: artifacts.slug,
  variantId: revisions.variantId,
  variantSlug: variants.slug,
};

const fullColumns = { ...metadataColumns, data: revisions.data };

/** Revisions joined with their artifact and variant slugs; `withData: false` for logs. */
export function selectRevisions(db: Executor, withData = true) {
  return db
    .select(withData ? fullColumns : metadataColumns)
    .from(revisions)
    .innerJoin(artifacts, eq(artifacts.id, revisions.artifactId))
    .innerJoin(variants, eq(variants.id, revisions.variantId))
    .$dynamic();
}
