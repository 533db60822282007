import { ConflictError } from "@/server/core/errors";

/**
 * The reference implementation's closed-run guard (§1.6): a closed run takes no writes until it is
 * opened. Its `detail` is the reference implementation's object (`{message, run_id}`), which its
 * clients read.
 */
export class ClosedRunError extends ConflictError {
  constructor(runId: string) {
    super(
      `Cannot modify a closed evaluation (run ${runId}); open it first with POST /api/evaluations/runs/${runId}/open`,
      "evaluation_closed",
    );
    this.structured({ run_id: runId });
  }
}
