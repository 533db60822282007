import { RUN_TAKEN_OVER, type NativeEvent, type NativeMessage } from "@/server/streams";
import type { RunRecord, RunTakeover, StepTiming } from "../run-types";

/** A logged event and when it was logged (its batch's `written_at`, epoch ms). */
export interface TimedEvent {
  event: NativeEvent;
  at: number;
}

type ToolCallTiming = StepTiming["toolCalls"][number];

export const interruptedToolMessage = (name: string) =>
  `The tool call "${name}" was interrupted: the process running it stopped before its result was recorded. It was not run again, since it may have side effects; check its effect before calling it again.`;

/**
 * The steps a run's event log records, timed by when their events were logged, for the trace of
 * a run taken over after its process died (that process wrote no spans: they are written when a
 * turn ends). A model step runs from the end of what came before it (the run's start, the last
 * tool result, a takeover) to its last logged event; a tool call from its complete announcement
 * to its result. At a `run_taken_over` marker: calls still running are interrupted there, the
 * step being written (its blocks discarded) is an interrupted model call, and when nothing was
 * being written yet a model call in flight since the last result is one too. A result after the
 * marker that is not the "interrupted" error is a read-only call run again: an execute_tool of
 * its own (the derived span id), its interrupted attempt keyed apart. Times are as fine as the
 * log's batches (tens of ms); usage per model call is not in the log.
 */
export function stepsOfLog(logged: TimedEvent[], startedAt: number): { steps: StepTiming[]; takeovers: RunTakeover[] } {
  const steps: StepTiming[] = [];
  const takeovers: RunTakeover[] = [];
  const calls = new Map<string, ToolCallTiming>();
  let current: StepTiming | undefined;
  // The current step's calls got results (or were settled by a takeover): what follows is a new model call.
  let answered = false;
  // When the next model call began.
  let cursor = startedAt;
  let last = startedAt;

  const modelStep = (at: number) => {
    if (!current || answered) {
      current = { index: steps.length, startedAt: Math.min(cursor, at), toolCalls: [] };
      steps.push(current);
      answered = false;
    }
    current.endedAt = Math.max(at, current.startedAt);
    return current;
  };

  for (const { event, at } of logged) {
    last = Math.max(last, at);
    switch (event.type) {
      case "message_start":
      case "message_end":
      case "thought_start":
      case "thought_delta":
      case "thought_end":
      case "thought":
      case "file":
        modelStep(at);
        break;
      case "message_delta":
      case "message": {
        const step = modelStep(at);
        step.text = (step.text ?? "") + (event.type === "message" ? event.text : event.delta);
        break;
      }
      case "tool_call": {
        const step = modelStep(at);
        const input = event.rawInput ?? event.input ?? {};
        const known = calls.get(event.id);
        if (known && step.toolCalls.includes(known)) Object.assign(known, { input, startedAt: at });
        else {
          const call: ToolCallTiming = { id: event.id, name: event.name, input, startedAt: at };
          step.toolCalls.push(call);
          calls.set(event.id, call);
        }
        break;
      }
      case "tool_result": {
        const call = calls.get(event.id);
        // A result for a call this log never announced answers an earlier run's call (an approval).
        if (!call) break;
        const result = { output: event.output, isError: event.isError ?? false };
        if (call.endedAt === undefined) Object.assign(call, { endedAt: Math.max(at, call.startedAt) }, result);
        else if (call.interrupted && event.output !== interruptedToolMessage(call.name)) {
          call.spanKey = `${call.id}:interrupted`;
          const rerun: ToolCallTiming = { id: call.id, name: call.name, input: call.input, startedAt: cursor };
          Object.assign(rerun, { endedAt: Math.max(at, cursor) }, result);
          steps.find((step) => step.toolCalls.includes(call))?.toolCalls.push(rerun);
          calls.set(call.id, rerun);
        }
        answered = true;
        cursor = Math.max(cursor, at);
        break;
      }
      case "data": {
        if (event.name !== RUN_TAKEN_OVER) break;
        const data = event.data as { discard?: string[]; interrupted?: string[] };
        const takeover = { at, interrupted: data.interrupted ?? [], discarded: data.discard ?? [] };
        takeovers.push(takeover);
        for (const id of takeover.interrupted) {
          const call = calls.get(id);
          if (call && call.endedAt === undefined)
            Object.assign(call, {
              endedAt: Math.max(at, call.startedAt),
              isError: true,
              interrupted: true,
              output: interruptedToolMessage(call.name),
            });
        }
        const discarded = new Set(takeover.discarded);
        if (current && !answered && takeover.discarded.length) {
          current.toolCalls = current.toolCalls.filter((call) => !discarded.has(call.id));
          if (!takeover.interrupted.length) Object.assign(current, { interrupted: true, endedAt: at });
        } else if (!takeover.interrupted.length && (!current || answered)) {
          steps.push({
            index: steps.length,
            startedAt: Math.min(cursor, at),
            endedAt: at,
            interrupted: true,
            toolCalls: [],
          });
        }
        current = undefined;
        cursor = at;
        break;
      }
      default:
        break;
    }
  }
  for (const step of steps) step.endedAt ??= Math.max(step.startedAt, last);
  return { steps, takeovers };
}

/**
 * The trace record of a run taken over: the run from its first start, the steps its dead
 * process(es) logged, then this turn's own (which carry their usage), under the run's one root.
 */
export function wholeRunRecord(
  turn: RunRecord,
  before: { startedAt: number; steps: StepTiming[]; takeovers: RunTakeover[]; messages: NativeMessage[] },
): RunRecord {
  // As runSpans does for any run: a continuation that failed before the model answered shows its attempt.
  const own = turn.steps.length
    ? turn.steps
    : [{ index: 0, startedAt: turn.startedAt, endedAt: turn.endedAt, toolCalls: [] }];
  return {
    ...turn,
    startedAt: Math.min(before.startedAt, turn.startedAt),
    messages: before.messages,
    steps: [...before.steps, ...own].map((step, index) => ({ ...step, index })),
    takeovers: before.takeovers,
  };
}
