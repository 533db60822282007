import { z } from "zod";
import { RUN_TAKEN_OVER, type NativeEvent } from "./native-event";

/** One message of `data.outputs.messages` (the interface contract "Batch response"). */
export interface BatchMessage {
  role: "assistant" | "tool";
  content: unknown;
  tool_call_id?: string;
  tool_name?: string;
  input?: unknown;
  is_error?: boolean;
}

export interface PendingInteraction {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  tool?: { tool_call_id: string; tool_name: string; input: unknown };
}

export interface BatchOutputs {
  messages: BatchMessage[];
  stop_reason?: string;
  pending_interaction?: PendingInteraction;
  /** Error frames of the turn, so a batch caller sees why a turn failed. */
  errors?: string[];
}

export const batchOutputsSchema = z.strictObject({
  messages: z.array(
    z.strictObject({
      role: z.enum(["assistant", "tool"]),
      content: z.unknown(),
      tool_call_id: z.string().optional(),
      tool_name: z.string().optional(),
      input: z.unknown().optional(),
      is_error: z.boolean().optional(),
    }),
  ),
  stop_reason: z.string().optional(),
  pending_interaction: z
    .strictObject({
      id: z.string(),
      kind: z.string(),
      payload: z.record(z.string(), z.unknown()),
      tool: z.strictObject({ tool_call_id: z.string(), tool_name: z.string(), input: z.unknown() }).optional(),
    })
    .optional(),
  errors: z.array(z.string()).optional(),
}) satisfies z.ZodType<BatchOutputs>;

/**
 * Folds a turn's native events into messages: deltas concatenate by block id, a repeated
 * tool_call id refreshes its input in place (rawInput preferred), reasoning, usage, data and
 * file events produce no message. `trim` keeps only the trailing unit: what follows the last
 * tool message (the final answer), or the whole turn when it ends on a tool message.
 */
export function foldBatch(events: Iterable<NativeEvent>, options: { trim?: boolean } = {}): BatchOutputs {
  const messages: BatchMessage[] = [];
  const texts = new Map<string, BatchMessage>();
  const calls = new Map<string, BatchMessage>();
  const errors: string[] = [];
  let stopReason: string | undefined;
  let pending: PendingInteraction | undefined;

  for (const event of events) {
    switch (event.type) {
      case "message":
        messages.push({ role: "assistant", content: event.text });
        break;
      case "message_start":
      case "message_delta": {
        let message = texts.get(event.id);
        if (!message) {
          message = { role: "assistant", content: "" };
          texts.set(event.id, message);
          messages.push(message);
        }
        if (event.type === "message_delta") message.content = `${message.content as string}${event.delta}`;
        break;
      }
      case "tool_call": {
        const input = event.rawInput ?? event.input ?? {};
        const known = calls.get(event.id);
        if (known) {
          known.input = input;
          known.tool_name = event.name;
        } else {
          const message: BatchMessage = {
            role: "tool",
            content: "",
            tool_call_id: event.id,
            tool_name: event.name,
            input,
          };
          calls.set(event.id, message);
          messages.push(message);
        }
        break;
      }
      case "tool_result":
        messages.push({
          role: "tool",
          content: event.output ?? "",
          tool_call_id: event.id,
          is_error: Boolean(event.isError),
        });
        break;
      case "interaction_request": {
        pending = { id: event.id, kind: event.kind, payload: event.payload };
        const callId = typeof event.payload.toolCallId === "string" ? event.payload.toolCallId : undefined;
        const call = callId ? calls.get(callId) : undefined;
        if (call) pending.tool = { tool_call_id: call.tool_call_id!, tool_name: call.tool_name!, input: call.input };
        break;
      }
      case "data":
        if (event.name === RUN_TAKEN_OVER) dropBlocks(messages, [texts, calls], discarded(event.data));
        break;
      case "error":
        errors.push(event.message);
        break;
      case "done":
        stopReason = event.stopReason;
        break;
      default:
        break;
    }
  }

  const kept = options.trim ? trailingUnit(messages) : messages;
  const outputs: BatchOutputs = { messages: kept };
  if (stopReason !== undefined) outputs.stop_reason = stopReason;
  if (stopReason === "paused" && pending) outputs.pending_interaction = pending;
  if (errors.length > 0) outputs.errors = errors;
  return outputs;
}

function discarded(data: unknown): string[] {
  const ids = (data as { discard?: unknown } | null)?.discard;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/** Removes the messages of the given block ids (a half-written step a takeover issued again). */
function dropBlocks(messages: BatchMessage[], byId: Array<Map<string, BatchMessage>>, ids: string[]): void {
  for (const id of ids)
    for (const map of byId) {
      const message = map.get(id);
      if (!message) continue;
      map.delete(id);
      messages.splice(messages.indexOf(message), 1);
    }
}

function trailingUnit(messages: BatchMessage[]): BatchMessage[] {
  let lastTool = -1;
  messages.forEach((message, index) => {
    if (message.role === "tool") lastTool = index;
  });
  if (lastTool === messages.length - 1) return messages;
  return messages.slice(lastTool + 1);
}
