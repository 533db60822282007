import { and, eq, inArray, sql } from "drizzle-orm";
import type { Page } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { revisions, variants } from "@/server/db/schema";
import { queryArtifacts, type ArtifactQuery } from "./artifacts";
import type { DomainSpec } from "./domain-spec";
import { isDefaultVariant } from "./lookup";
import type { ArtifactRecord, Scope } from "./records";

/** The head revision of an artifact's default variant, without its data. */
export interface HeadRevision {
  revisionId: string;
  version: number;
  message: string | null;
  date: Date;
  authorId: string | null;
  /** The length of the array at `data[countArray]` (0 when absent), when asked for. */
  count: number;
}

export interface ArtifactWithHead {
  artifact: ArtifactRecord;
  defaultVariantId?: string;
  /** Absent before the first commit. */
  latest?: HeadRevision;
}

/**
 * A page of a domain's artifacts, each with its default variant's head revision, in two queries
 * whatever the page size. `countArray` counts an array of the head's data in SQL
 * (`jsonb_array_length`), so a list of large revisions never loads them.
 */
export async function queryArtifactsWithHeads(
  db: Executor,
  scope: Scope,
  spec: DomainSpec,
  query: ArtifactQuery,
  options: { countArray?: string } = {},
): Promise<Page<ArtifactWithHead>> {
  const page = await queryArtifacts(db, scope, spec, query);
  if (page.items.length === 0) return { items: [], next: page.next };
  const count = options.countArray
    ? sql<number>`coalesce(jsonb_array_length(${revisions.data} -> ${options.countArray}::text), 0)`.mapWith(Number)
    : sql<number>`0`.mapWith(Number);
  const heads = await db
    .select({
      artifactId: variants.artifactId,
      variantId: variants.id,
      revisionId: revisions.id,
      version: revisions.version,
      message: revisions.message,
      date: revisions.createdAt,
      authorId: revisions.authorId,
      count,
    })
    .from(variants)
    .leftJoin(revisions, and(eq(revisions.variantId, variants.id), eq(revisions.version, variants.headVersion)))
    .where(
      and(
        inArray(
          variants.artifactId,
          page.items.map((a) => a.id),
        ),
        isDefaultVariant(variants.id, variants.artifactId),
      ),
    );
  const byArtifact = new Map(heads.map((h) => [h.artifactId, h]));
  return {
    next: page.next,
    items: page.items.map((artifact) => {
      const head = byArtifact.get(artifact.id);
      return {
        artifact,
        defaultVariantId: head?.variantId,
        latest: head?.revisionId
          ? {
              revisionId: head.revisionId,
              version: head.version!,
              message: head.message,
              date: head.date!,
              authorId: head.authorId,
              count: head.count,
            }
          : undefined,
      };
    }),
  };
}
