import { Role, TaskState, type Artifact, type Message, type Part, type Task } from "@a2a-js/sdk";

/**
 * Constructors for the SDK's protocol records (protobuf-shaped: every field present), so the
 * mapping code states only what it means.
 */
export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

export function agentMessage(text: string, ids: { taskId: string; contextId: string; messageId: string }): Message {
  return {
    ...ids,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function userMessage(text: string, ids: { taskId: string; contextId: string; messageId: string }): Message {
  return { ...agentMessage(text, ids), role: Role.ROLE_USER };
}

/** The one artifact a task produces: the agent's final answer. */
export const REPLY_ARTIFACT_ID = "reply";

export const replyArtifact = (text: string): Artifact => ({
  artifactId: REPLY_ARTIFACT_ID,
  name: "reply",
  description: "The agent's answer",
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
});

export interface TaskFields {
  id: string;
  contextId: string;
  state: TaskState;
  timestamp: Date;
  statusText?: string;
  reply?: string;
  history: Message[];
  metadata?: Record<string, unknown>;
}

export function task(fields: TaskFields): Task {
  const ids = { taskId: fields.id, contextId: fields.contextId };
  return {
    id: fields.id,
    contextId: fields.contextId,
    status: {
      state: fields.state,
      message:
        fields.statusText === undefined
          ? undefined
          : agentMessage(fields.statusText, { ...ids, messageId: `${fields.id}-status` }),
      timestamp: fields.timestamp.toISOString(),
    },
    artifacts: fields.reply === undefined ? [] : [replyArtifact(fields.reply)],
    history: fields.history,
    metadata: fields.metadata,
  };
}

/** Terminal states: the task's run has ended. */
export const isTerminal = (state: TaskState): boolean =>
  state === TaskState.TASK_STATE_COMPLETED ||
  state === TaskState.TASK_STATE_FAILED ||
  state === TaskState.TASK_STATE_CANCELED ||
  state === TaskState.TASK_STATE_REJECTED;
