import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { isLiveEvaluation } from "@/server/evaluations";

/** The guard's evaluation must be a live evaluation of the project: no other gets results from traffic. */
export async function checkScoreGuard(db: Executor, projectId: string, evaluationRunId: string): Promise<void> {
  const live = await isLiveEvaluation(db, projectId, evaluationRunId);
  if (live === undefined)
    throw new NotFoundError(`evaluation run ${evaluationRunId} not found in this project`, "evaluation_not_found");
  if (!live)
    throw new BadRequestError(
      `evaluation run ${evaluationRunId} is not a live evaluation (flags.is_live): it scores no traffic, so it cannot guard a canary`,
      "evaluation_not_live",
    );
}
