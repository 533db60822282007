import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import type { StoredRunData } from "../model/run-data";
import { lookupRevision } from "./step-targets";

export interface SourceItem {
  testcaseId?: string;
  inputs: Record<string, unknown>;
}

/** The rows a run evaluates: every testcase of its testset revisions, or the testcases given inline. */
export async function sourceItems(db: Executor, projectId: string, data: StoredRunData): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for (const step of data.steps.filter((s) => s.type === "input")) {
    const id = step.references.testset_revision?.id;
    if (id) {
      const { revision } = await lookupRevision(db, projectId, ["testsets"], id, "testset revision");
      const rows = (revision.data?.testcases ?? []) as { id: string; data?: Record<string, unknown> }[];
      if (rows.length === 0)
        throw new BadRequestError(`testset revision ${id} has no testcases; commit some rows first`, "empty_testset");
      for (const row of rows) items.push({ testcaseId: row.id, inputs: row.data ?? {} });
    } else if (step.key === "testcases" || step.key === "testset-direct") {
      for (const row of data.testcases ?? []) items.push({ inputs: row });
    } else if (step.references.query_revision) {
      throw new BadRequestError(
        `step "${step.key}": evaluating a query over traces is not supported by this service yet; use a testset or inline testcases`,
        "unsupported_source",
      );
    }
  }
  return items;
}
