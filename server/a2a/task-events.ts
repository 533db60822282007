import type { StreamResponse, Task } from "@a2a-js/sdk";
import { RUN_TAKEN_OVER, type NativeEvent } from "@/server/streams";
import { replyArtifact } from "./a2a-shapes";

/**
 * Native events to A2A stream updates, for one task: the answer's text as chunks of the `reply`
 * artifact. A tool step or a takeover starts the artifact again (`append: false`): the answer is
 * the text after the agent's last tool step, and a takeover discards the half-written step.
 */
export class TaskEventProjection {
  private append = false;

  constructor(private readonly ids: { taskId: string; contextId: string }) {}

  next(event: NativeEvent): StreamResponse[] {
    switch (event.type) {
      case "message":
        return [this.chunk(event.text)];
      case "message_delta":
        return [this.chunk(event.delta)];
      case "tool_call":
      case "tool_result":
        this.append = false;
        return [];
      case "data":
        if (event.name === RUN_TAKEN_OVER) this.append = false;
        return [];
      default:
        return [];
    }
  }

  private chunk(text: string): StreamResponse {
    const append = this.append;
    this.append = true;
    return {
      payload: {
        $case: "artifactUpdate",
        value: { ...this.ids, artifact: replyArtifact(text), append, lastChunk: false, metadata: undefined },
      },
    };
  }
}

export const taskUpdate = (task: Task): StreamResponse => ({ payload: { $case: "task", value: task } });

/** The last update of a stream: the task's final status (with its message, when it failed). */
export const finalStatus = (task: Task): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: task.metadata },
  },
});
