import type { Executor } from "@/server/db";
import { capped, emitEvent } from "@/server/events/emit";
import type { Page } from "@/server/core/windowing";
import type { Scope } from "@/server/versioning";
import { getTestcase, queryTestcases, type TestcaseQuery, type TestcaseRecord } from "./testcase-store";

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
      attributes: { testcase_ids: capped(page.items.map((t) => t.id)), count: page.items.length, user_id: scope.userId },
    });
  }
  return page;
}
