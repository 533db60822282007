import { and, eq, inArray, sql } from "drizzle-orm";
import type { Page, Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { revisions, variants } from "@/server/db/schema";
import { isDefaultVariant, queryArtifacts, type ArtifactRecord, type Scope } from "@/server/versioning";
import { testsetsSpec } from "./spec";

export interface TestsetSummary {
  artifact: ArtifactRecord;
  defaultVariantId?: string;
  latest?: { revisionId: string; version: number; message: string | null; date: Date; rows: number };
}

export interface TestsetListQuery {
  search?: string;
  includeArchived?: boolean;
  windowing?: Windowing;
}

/**
 * Testsets with their default variant's head: version, date and row count. The count is read in
 * SQL (`jsonb_array_length`) so a list of large testsets never loads their rows.
 */
export async function listTestsets(
  db: Executor,
  scope: Scope,
  query: TestsetListQuery = {},
): Promise<Page<TestsetSummary>> {
  const page = await queryArtifacts(db, scope, testsetsSpec, {
    filter: { name: query.search },
    includeArchived: query.includeArchived,
    windowing: query.windowing,
  });
  if (page.items.length === 0) return { items: [], next: page.next };
  const heads = await db
    .select({
      artifactId: variants.artifactId,
      variantId: variants.id,
      revisionId: revisions.id,
      version: revisions.version,
      message: revisions.message,
      date: revisions.createdAt,
      rows: sql<number>`coalesce(jsonb_array_length(${revisions.data} -> 'testcases'), 0)`.mapWith(Number),
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
              rows: head.rows,
            }
          : undefined,
      };
    }),
  };
}
