import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { capped, emitEvent } from "@/server/events";
import type { Page } from "@/server/core/windowing";
import { Lookup, resolveRevision, type RetrieveRefs, type Scope } from "@/server/versioning";
import { testsetsSpec } from "./spec";
import { getTestcase, queryTestcases, type TestcaseQuery, type TestcaseRecord } from "@/server/versioning";

/** Reads that emit testcases.fetched / testcases.queried, only when something was returned. */
export async function fetchTestcase(db: Executor, scope: Scope, id: string): Promise<TestcaseRecord> {
  const testcase = await getTestcase(db, scope.projectId, id);
  await emitEvent(db, {
    projectId: scope.projectId,
    type: "testcases.fetched",
    attributes: { testcase_id: testcase.id, count: 1, user_id: scope.userId },
  });
  return testcase;
}

export async function readTestcases(
  db: Executor,
  scope: Scope,
  query: TestcaseQuery,
  type: "testcases.fetched" | "testcases.queried",
): Promise<Page<TestcaseRecord>> {
  const page = await queryTestcases(db, scope.projectId, query);
  if (page.items.length > 0) {
    await emitEvent(db, {
      projectId: scope.projectId,
      type,
      attributes: {
        testcase_ids: capped(page.items.map((t) => t.id)),
        count: page.items.length,
        user_id: scope.userId,
      },
    });
  }
  return page;
}

/**
 * testcases.queried: by ids and testset, or the rows of one testset revision in that revision's
 * order, named by `revisionId` or by references (`testset_revision_ref`, or a variant or testset
 * reference and version) resolved as a retrieve resolves them.
 */
export async function queryTestcasesOf(
  db: Executor,
  scope: Scope,
  query: TestcaseQuery & { revisionId?: string; revisionRefs?: RetrieveRefs },
): Promise<Page<TestcaseRecord>> {
  const byRefs = query.revisionRefs && Object.values(query.revisionRefs).some((ref) => ref !== undefined);
  // Every testcase of the project is GET /testcases/'s job; a query says what it is after.
  if (!query.ids && !query.testsetId && !query.revisionId && !byRefs) {
    throw new BadRequestError(
      "Say which testcases: testcase_ids, testset_id, testset_revision_id or testset_revision_ref",
      "missing_filter",
    );
  }
  if (!query.revisionId && !byRefs) return readTestcases(db, scope, query, "testcases.queried");
  // A lookup, not a fetch: this read is testcases.queried, not testsets.revisions.fetched.
  const revision = byRefs
    ? (await resolveRevision(db, scope.projectId, testsetsSpec.keys, query.revisionRefs!)).revision
    : await new Lookup(db, scope.projectId, testsetsSpec.keys).revision(
        { id: query.revisionId! },
        "testset_revision_id",
      );
  const rowIds = ((revision.data?.testcases ?? []) as { id: string }[]).map((r) => r.id);
  const ids = query.ids ? rowIds.filter((id) => query.ids!.includes(id)) : rowIds;
  const page = await readTestcases(db, scope, { ...query, ids }, "testcases.queried");
  const order = new Map(ids.map((id, i) => [id, i]));
  return { ...page, items: [...page.items].sort((a, b) => order.get(a.id)! - order.get(b.id)!) };
}
