import type { Page, Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { queryArtifactsWithHeads, type ArtifactRecord, type Scope } from "@/server/versioning";
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
  const page = await queryArtifactsWithHeads(
    db,
    scope,
    testsetsSpec,
    { filter: { name: query.search }, includeArchived: query.includeArchived, windowing: query.windowing },
    { countArray: "testcases" },
  );
  return {
    next: page.next,
    items: page.items.map(({ artifact, defaultVariantId, latest }) => ({
      artifact,
      defaultVariantId,
      latest: latest && {
        revisionId: latest.revisionId,
        version: latest.version,
        message: latest.message,
        date: latest.date,
        rows: latest.count,
      },
    })),
  };
}
