/** One tool call of an agent run, in call order (the trajectory evaluator reads these). */
export interface ToolCallRecord {
  name: string;
  input: unknown;
  output?: unknown;
  isError?: boolean;
}

export interface CellFailure {
  code: string;
  message: string;
  /** Rate limits, 5xx, time-outs: the engine tries the cell again with backoff. */
  retryable?: boolean;
}

/** What running one step on one cell gave. */
export type CellOutcome =
  | {
      status: "success";
      outputs: unknown;
      traceId?: string;
      latencyMs: number;
      tokens?: number;
      costUsd?: number;
      toolCalls?: ToolCallRecord[];
    }
  | { status: "failure"; error: CellFailure; traceId?: string; latencyMs: number };

const RETRYABLE =
  /\b(429|5\d\d)\b|rate.?limit|overloaded|timed? ?out|timeout|ECONNRESET|ECONNREFUSED|socket hang up|temporarily/i;

/** Whether a provider or transport error is worth another attempt. */
export function isRetryableMessage(message: string): boolean {
  return RETRYABLE.test(message);
}

type Success = Extract<CellOutcome, { status: "success" }>;

/**
 * How an invocation that ran (agent turn or prompt call) ends as a cell: stopped, failed (retryable
 * when the message says so), or its success; one rule for both runners.
 */
export function invocationOutcome(
  run: { signal: AbortSignal; traceId: string; latencyMs: number; failure: string | undefined },
  success: Omit<Success, "status" | "traceId" | "latencyMs">,
): CellOutcome {
  const { traceId, latencyMs, failure } = run;
  if (run.signal.aborted)
    return { status: "failure", error: { code: "cancelled", message: "the run was stopped" }, traceId, latencyMs };
  if (failure) {
    return {
      status: "failure",
      error: { code: "invocation_failed", message: failure, retryable: isRetryableMessage(failure) },
      traceId,
      latencyMs,
    };
  }
  return { status: "success", traceId, latencyMs, ...success };
}
