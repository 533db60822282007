import { eq } from "drizzle-orm";
import type { BuildAliasTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";

type Aliasable<T extends typeof revisions | typeof artifacts | typeof variants> = T | BuildAliasTable<T, string>;
type Tables = {
  revision: Aliasable<typeof revisions>;
  artifact: Aliasable<typeof artifacts>;
  variant: Aliasable<typeof variants>;
};

/** The columns of a RevisionRecord, from the given (possibly aliased) tables. */
export function revisionColumns({ revision, artifact, variant }: Tables, withData = true) {
  const metadata = {
    id: revision.id,
    slug: revision.slug,
    version: revision.version,
    message: revision.message,
    name: revision.name,
    description: revision.description,
    flags: revision.flags,
    tags: revision.tags,
    meta: revision.meta,
    updatedAt: revision.updatedAt,
    authorId: revision.authorId,
    createdAt: revision.createdAt,
    deletedAt: revision.deletedAt,
    artifactId: revision.artifactId,
    artifactSlug: artifact.slug,
    variantId: revision.variantId,
    variantSlug: variant.slug,
  };
  return withData ? { ...metadata, data: revision.data } : metadata;
}

/** Revisions joined with their artifact and variant slugs; `withData: false` for logs. */
export function selectRevisions(db: Executor, withData = true) {
  return db
    .select(revisionColumns({ revision: revisions, artifact: artifacts, variant: variants }, withData))
    .from(revisions)
    .innerJoin(artifacts, eq(artifacts.id, revisions.artifactId))
    .innerJoin(variants, eq(variants.id, revisions.variantId))
    .$dynamic();
}
