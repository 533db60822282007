import { BadRequestError } from "@/server/core/errors";
import {
  domainKeys,
  type CommitContext,
  type CommitPayload,
  type DomainSpec,
  type PreparedCommit,
} from "@/server/versioning";
import { TESTSET_DATA_KEYS } from "../data-keys";
import { shapeTestsetRetrieved, testsetRetrieveOptions } from "./retrieve-options";
import { upsertTestcases } from "@/server/versioning";

export const MAX_TESTCASES_PER_REVISION = 50_000;

/**
 * Testset revision data holds rows in `testcases`: each `{data: {...}}` (or a bare object, taken
 * as its data). The stored revision records each row as `{id, data}` with its stable testcase id.
 */
export const testsetsSpec: DomainSpec = {
  keys: domainKeys("testsets"),
  dataKeys: TESTSET_DATA_KEYS,
  retrieveOptions: testsetRetrieveOptions,
  shapeRetrieved: shapeTestsetRetrieved,
  async prepareCommit(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit> {
    const data = payload.data ?? {};
    const raw = data.testcases ?? [];
    if (!Array.isArray(raw)) throw new BadRequestError("data.testcases must be an array of rows", "invalid_testcases");
    if (raw.length > MAX_TESTCASES_PER_REVISION) {
      throw new BadRequestError(
        `A testset revision holds at most ${MAX_TESTCASES_PER_REVISION} testcases`,
        "too_many_testcases",
      );
    }
    const rows = raw.map((row, i) => {
      if (typeof row !== "object" || row === null || Array.isArray(row)) {
        throw new BadRequestError(`data.testcases[${i}] must be an object`, "invalid_testcases");
      }
      const inner = (row as Record<string, unknown>).data;
      return (inner && typeof inner === "object" && !Array.isArray(inner) ? inner : row) as Record<string, unknown>;
    });
    const ids = await upsertTestcases(ctx.tx, ctx.projectId, ctx.artifact.id, rows);
    return { data: { ...data, testcases: rows.map((row, i) => ({ id: ids[i], data: row })) } };
  },
};
