import { SchemaValidationError } from "@/server/core/errors";

/**
 * A scenario or a queue never moves to another run: an edit may echo its `run_id` (a client
 * sending back the record it read), but a different one is refused rather than dropped.
 */
export function movedToRun(kind: "scenario" | "queue", id: string, runId: string): SchemaValidationError {
  const message = `run_id cannot change: ${kind} ${id} belongs to run ${runId}`;
  return new SchemaValidationError([{ path: "run_id", message }], message);
}
