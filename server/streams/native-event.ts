/**
 * The one internal event vocabulary a harness emits (the interface contract "Stream events"). Every
 * transport and format is a projection of a sequence of these; nothing else reaches the wire.
 */
export type InteractionKind = "user_approval" | "user_input" | "client_tool";

export interface RunUsage {
  input: number;
  output: number;
  total: number;
  /** USD at the catalog's list price; absent when the model has no price. */
  cost?: number;
}

export type NativeEvent =
  | { type: "message"; text: string }
  | { type: "message_start"; id: string }
  | { type: "message_delta"; id: string; delta: string }
  | { type: "message_end"; id: string }
  | { type: "thought"; text: string }
  | { type: "thought_start"; id: string }
  | { type: "thought_delta"; id: string; delta: string }
  | { type: "thought_end"; id: string }
  | { type: "tool_call"; id: string; name: string; input?: unknown; rawInput?: unknown; render?: unknown }
  | {
      type: "tool_result";
      id: string;
      output?: unknown;
      data?: unknown;
      isError?: boolean;
      denied?: boolean;
      render?: unknown;
    }
  | { type: "interaction_request"; id: string; kind: InteractionKind; payload: Record<string, unknown> }
  | { type: "interaction_response"; id: string; kind: InteractionKind; payload: unknown }
  | { type: "data"; name: string; data: unknown; transient?: boolean }
  | { type: "file"; url: string; mediaType: string }
  | ({ type: "usage" } & RunUsage)
  | { type: "error"; message: string }
  | { type: "done"; stopReason: string; traceId: string };

export type NativeEventType = NativeEvent["type"];

/**
 * The `data` event a run taken over after a crash starts its continuation with
 * (server/agent-runs/runs): `data.discard` names the blocks (text and reasoning ids, tool call
 * ids) of the step that was half written when its process died. That step is issued again, so
 * folds drop the discarded blocks; a live stream that already showed them cannot take them back.
 */
export const RUN_TAKEN_OVER = "run_taken_over";

/** Events that count as turn content: a turn with none of them gets the "no output" error. */
export function isContentEvent(event: NativeEvent): boolean {
  switch (event.type) {
    case "message":
    case "message_delta":
    case "thought":
    case "thought_delta":
    case "tool_call":
    case "tool_result":
    case "interaction_request":
    case "file":
    case "data":
      return true;
    default:
      return false;
  }
}

export const NO_OUTPUT_MESSAGE = "The agent produced no output.";
