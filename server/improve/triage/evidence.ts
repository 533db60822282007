import type { AppContext } from "@/server/core/app-context";
import { evaluationTable, failingAnnotations, type EvaluationRow } from "@/server/evaluations";
import { getAlert, getMonitor } from "@/server/monitors";
import {
  checkTraceFiltering,
  failingTraceIds,
  loadTraceFacts,
  matchingTraceIds,
  SPAN_DIMENSIONS,
  type SpanDimension,
  type TraceFacts,
} from "@/server/tracing";
import { MAX_TRIAGE_ITEMS, type Evidence, type TriageItem } from "./wire";

/** Stop reasons of a turn that ended as it should: no signature of a failure. */
const NORMAL_STOPS = new Set(["end_turn", "stop", "tool_calls", "tool_use"]);
/** Trace facts are read this many at a time. */
const FACT_PAGE = 200;

/**
 * Checks what the evidence names before anything is queued: an unknown run, monitor, alert or
 * queue is a 404 now, a malformed trace filter a 400, not a triage that fails later.
 */
export async function checkEvidence(
  app: AppContext,
  projectId: string,
  evidence: Evidence,
  options: { alertMayCome?: boolean } = {},
): Promise<void> {
  switch (evidence.kind) {
    case "traces":
      checkTraceFiltering(evidence.filter);
      return;
    case "monitor_alert":
      // An automation saved to triage a monitor's next firing names a monitor that may never have fired yet.
      if (options.alertMayCome && !evidence.alert_id) await getMonitor(app, projectId, evidence.monitor_id);
      else await getAlert(app, projectId, evidence.monitor_id, evidence.alert_id);
      return;
    case "evaluation_run":
      await evaluationTable(app.db, projectId, evidence.run_id);
      return;
    case "annotations":
      await failingAnnotations(app.db, projectId, { queueId: evidence.queue_id, limit: 1 });
      return;
  }
}

/** The failures the evidence holds, at most MAX_TRIAGE_ITEMS, each with what is known of it. */
export async function collectItems(app: AppContext, projectId: string, evidence: Evidence): Promise<TriageItem[]> {
  switch (evidence.kind) {
    case "traces": {
      const ids = await matchingTraceIds(app.db, projectId, evidence.filter, {
        oldest: evidence.oldest ? new Date(evidence.oldest) : undefined,
        newest: evidence.newest ? new Date(evidence.newest) : undefined,
        limit: evidence.limit,
      });
      return traceItems(app, projectId, ids);
    }
    case "monitor_alert": {
      const [monitor, alert] = await Promise.all([
        getMonitor(app, projectId, evidence.monitor_id),
        getAlert(app, projectId, evidence.monitor_id, evidence.alert_id),
      ]);
      const scope = monitor.scope as { kind?: string; value?: string };
      const dimension =
        scope.kind && scope.value && (SPAN_DIMENSIONS as readonly string[]).includes(scope.kind)
          ? { name: scope.kind as SpanDimension, value: scope.value }
          : undefined;
      const ids = await failingTraceIds(app.db, projectId, {
        oldest: alert.windowStart,
        newest: alert.windowEnd,
        limit: MAX_TRIAGE_ITEMS,
        dimension,
      });
      return traceItems(app, projectId, ids);
    }
    case "evaluation_run": {
      const table = await evaluationTable(app.db, projectId, evidence.run_id);
      return table.rows.flatMap((row) => runItem(row, evidence.below) ?? []).slice(0, MAX_TRIAGE_ITEMS);
    }
    case "annotations": {
      const found = await failingAnnotations(app.db, projectId, {
        queueId: evidence.queue_id,
        oldest: evidence.oldest ? new Date(evidence.oldest) : undefined,
        newest: evidence.newest ? new Date(evidence.newest) : undefined,
        limit: MAX_TRIAGE_ITEMS,
      });
      return found.map((a) => ({
        ...(a.traceId ? { trace_id: a.traceId } : {}),
        ...(a.testcaseId ? { testcase_id: a.testcaseId } : {}),
        input: a.inputs,
        output: a.output,
        feedback:
          a.comment ??
          (a.success === false
            ? "annotated as failing"
            : a.score !== undefined
              ? `annotated ${a.score} of 5`
              : "corrected"),
        ...(a.expected !== undefined ? { expected: a.expected } : {}),
        evaluator: a.stepKey,
      }));
    }
  }
}

async function traceItems(app: AppContext, projectId: string, ids: string[]): Promise<TriageItem[]> {
  const items: TriageItem[] = [];
  for (let i = 0; i < ids.length; i += FACT_PAGE) {
    const facts = await loadTraceFacts(app.db, projectId, ids.slice(i, i + FACT_PAGE));
    const byId = new Map(facts.map((f) => [f.traceId, f]));
    // In the order the evidence found them (oldest first), not the store's.
    for (const id of ids.slice(i, i + FACT_PAGE)) {
      const fact = byId.get(id);
      if (fact) items.push(traceItem(fact));
    }
  }
  return items;
}

function traceItem(fact: TraceFacts): TriageItem {
  const tool = fact.failedTools[0];
  const stop = fact.stopReason && !NORMAL_STOPS.has(fact.stopReason) ? fact.stopReason : undefined;
  return {
    trace_id: fact.traceId,
    ...(fact.spanId ? { span_id: fact.spanId } : {}),
    input: fact.inputs,
    output: fact.outputs,
    ...(fact.errorMessage ? { feedback: fact.errorMessage } : {}),
    ...(fact.errorClass ? { error_class: fact.errorClass } : {}),
    ...(tool ? { tool } : {}),
    ...(stop ? { stop_reason: stop } : {}),
  };
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The reason an evaluator gave with its verdict, when it gave one. */
function reasonOf(outputs: unknown): string | undefined {
  const o = record(outputs);
  for (const key of ["reason", "comment", "explanation", "feedback"]) if (typeof o[key] === "string") return o[key];
  return undefined;
}

/**
 * A scenario of the run as a failure: its invocation failed, or an evaluator failed, scored it
 * below `below`, gave the verdict false, or (a person) corrected it.
 */
function runItem(row: EvaluationRow, below: number): TriageItem | undefined {
  const failed = Object.entries(row.scores).filter(
    ([, s]) =>
      s.status === "failure" ||
      (s.score !== undefined && s.score < below) ||
      record(s.outputs).success === false ||
      // A person who wrote what the output should have been judged it wrong, whatever the score.
      record(s.outputs).expected !== undefined ||
      record(s.outputs).correction !== undefined,
  );
  const invocationFailed = row.output_status === "failure";
  if (!invocationFailed && failed.length === 0) return undefined;
  const feedback = [
    ...(invocationFailed ? [`the application failed: ${JSON.stringify(row.output_error ?? "no detail")}`] : []),
    ...failed.map(([name, s]) => {
      const reason = reasonOf(s.outputs) ?? (s.error ? JSON.stringify(s.error) : undefined);
      return `${name}: ${s.score !== undefined ? `scored ${Math.round(s.score * 1000) / 1000}` : s.status}${reason ? ` (${reason})` : ""}`;
    }),
  ].join("; ");
  // A person's annotation in the run may say what the output should have been.
  const corrected = Object.values(row.scores)
    .map((s) => record(s.outputs))
    .find((o) => o.expected !== undefined || o.correction !== undefined);
  const errorCode = record(row.output_error).code;
  return {
    ...(row.trace_id ? { trace_id: row.trace_id } : {}),
    ...(row.testcase_id ? { testcase_id: row.testcase_id } : {}),
    input: row.inputs,
    output: row.output ?? null,
    feedback,
    ...(corrected ? { expected: corrected.expected ?? corrected.correction } : {}),
    ...(failed[0] ? { evaluator: failed[0][0] } : {}),
    ...(invocationFailed && typeof errorCode === "string" ? { error_class: errorCode } : {}),
  };
}
