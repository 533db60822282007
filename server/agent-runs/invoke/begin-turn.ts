import type { AppContext } from "@/server/core/app-context";
import { harnessFor } from "../harnesses";
import { recordRunTrace } from "../record-run-trace";
import { trackDrivenRun } from "../runs/live-runs";
import { notifyRunFinished } from "../run-listeners";
import type { RunRecord, TurnInput } from "../run-types";
import { startTurn, type TurnHandle } from "../start-turn";
import type { TraceContext } from "../trace-context";

/**
 * Starts a prepared turn on its harness and, when it ends, tells the run listeners and writes its
 * spans (the provider key and the turn's other secrets redacted; the whole run's when `runRecord`
 * adds what came before). A harness that cannot run frees what the turn already holds open (MCP
 * clients) before the refusal goes out.
 */
export function beginTurn(
  app: AppContext,
  input: TurnInput,
  trace: TraceContext,
  signal?: AbortSignal,
  /** The record the listeners and the trace get, when the run is more than this turn (taken over, continuing a paused run). */
  runRecord?: (record: RunRecord) => RunRecord,
): TurnHandle {
  const kind = input.template.harness.kind;
  let harness;
  try {
    harness = harnessFor(kind, app.config);
  } catch (error) {
    void input.release?.();
    throw error;
  }
  const turn = startTurn(harness, input, trace, { harnessKind: kind, signal });
  // The trace's write counts among the runs this process drives (drivenRunsEnded): a serverless
  // host's after-work does not freeze before it, and a test awaits it instead of polling.
  trackDrivenRun(
    app.db,
    turn.record.then((turnRecord) => {
      const record = runRecord ? runRecord(turnRecord) : turnRecord;
      notifyRunFinished(record);
      return recordRunTrace(app, record, [
        ...(input.connection.apiKey ? [input.connection.apiKey] : []),
        ...(input.secrets ?? []),
      ]);
    }),
  );
  return turn;
}
