import { ConflictError } from "@/server/core/errors";

/** The reference's closed-run guard (§1.6): a closed run takes no writes until it is opened. */
export class ClosedRunError extends ConflictError {
  constructor(runId: string) {
    super(
      `Cannot modify a closed evaluation (run ${runId}); open it first with POST /api/evaluations/runs/${runId}/open`,
      "evaluation_closed",
    );
  }
}
