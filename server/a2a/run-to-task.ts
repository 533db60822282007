import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import { foldBatch, type NativeEvent } from "@/server/streams";
import { task, userMessage, agentMessage } from "./a2a-shapes";

/** The fields of a run record a task is made from. */
export interface TaskRun {
  id: string;
  sessionId: string;
  status: string;
  stopReason: string | null;
  error: string | null;
  traceId: string;
  createdAt: Date;
  endedAt: Date | null;
  request: unknown;
}

/** The run's state as an A2A task state. A paused run waits for an approval nobody can give over A2A. */
export function taskState(run: Pick<TaskRun, "status" | "stopReason">): TaskState {
  switch (run.status) {
    case "running":
      return TaskState.TASK_STATE_WORKING;
    case "failed":
      return TaskState.TASK_STATE_FAILED;
    case "cancelled":
      return TaskState.TASK_STATE_CANCELED;
    case "paused":
      return TaskState.TASK_STATE_INPUT_REQUIRED;
    default:
      return run.stopReason === "cancelled" ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_COMPLETED;
  }
}

/** The agent's final answer: the text after its last tool step, blocks a takeover discarded left out. */
export function replyText(events: Iterable<NativeEvent>): string {
  return foldBatch(events, { trim: true })
    .messages.filter((m) => m.role === "assistant" && typeof m.content === "string")
    .map((m) => m.content as string)
    .join("\n\n");
}

/** The text the caller sent, as the run recorded it (its invoke body's user message). */
export function sentText(request: unknown): string | undefined {
  const messages = (request as { body?: { data?: { inputs?: { messages?: unknown } } } } | null)?.body?.data?.inputs
    ?.messages;
  if (!Array.isArray(messages)) return undefined;
  const last = messages.at(-1) as { content?: unknown } | undefined;
  return typeof last?.content === "string" ? last.content : undefined;
}

/**
 * The task a run is: its id and context (the run and its session), state, the answer as the
 * `reply` artifact once it ended, the exchange as history, the error as the status message of a
 * failed task, and the run's trace id in metadata (to find it in the playground).
 */
export function runToTask(run: TaskRun, events: NativeEvent[], historyLength?: number): Task {
  const state = taskState(run);
  const ids = { taskId: run.id, contextId: run.sessionId };
  const history: Message[] = [];
  const sent = sentText(run.request);
  if (sent !== undefined) history.push(userMessage(sent, { ...ids, messageId: `${run.id}-input` }));
  const ended = run.status !== "running";
  const reply = ended ? replyText(events) : undefined;
  if (reply) history.push(agentMessage(reply, { ...ids, messageId: `${run.id}-reply` }));
  const statusText =
    state === TaskState.TASK_STATE_FAILED
      ? (run.error ?? "The run failed.")
      : state === TaskState.TASK_STATE_INPUT_REQUIRED
        ? "The agent asked for an approval; answer it in the playground, then send a new message in this context."
        : undefined;
  return task({
    id: run.id,
    contextId: run.sessionId,
    state,
    timestamp: run.endedAt ?? run.createdAt,
    statusText,
    reply: ended && state === TaskState.TASK_STATE_COMPLETED ? reply : undefined,
    history: historyLength === undefined ? history : historyLength === 0 ? [] : history.slice(-historyLength),
    metadata: { trace_id: run.traceId, run_id: run.id },
  });
}

/** The text of a task's `reply` artifact ("" while it runs). */
export const replyArtifactText = (task: Task): string =>
  task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("");
