import { RUN_TAKEN_OVER, type ContentBlock, type NativeEvent, type NativeMessage } from "@/server/streams";

export interface InterruptedCall {
  id: string;
  name: string;
  input: unknown;
}

export interface TakeoverPlan {
  /** The log's events the continued turn keeps (everything but the discarded blocks). */
  kept: NativeEvent[];
  /** Block ids of the half-written step. */
  discard: string[];
  /** Complete tool calls with no recorded result: they may have started before the crash. */
  interrupted: InterruptedCall[];
  /** How many times the run was taken over already. */
  takeovers: number;
}

/**
 * Where a run's log says its turn stood when its process died. A tool call is announced (input
 * `{}`) when the model starts writing it and repeated once complete, so a call seen once never
 * reached its tool. The last completed step ends at the last recorded tool result; after it:
 * - complete calls without a result were (maybe) running: the step stands, the calls are
 *   `interrupted` and the takeover settles them (read-only ones run again, others get an error);
 * - otherwise what follows is a model step in flight: its blocks are discarded and the model is
 *   asked again.
 */
export function planTakeover(events: NativeEvent[]): TakeoverPlan {
  const seen = new Map<string, { count: number; name: string; input: unknown }>();
  const results = new Set<string>();
  let lastResult = -1;
  let takeovers = 0;
  events.forEach((event, index) => {
    if (event.type === "tool_call") {
      const known = seen.get(event.id);
      seen.set(event.id, {
        count: (known?.count ?? 0) + 1,
        name: event.name,
        input: event.rawInput ?? event.input ?? {},
      });
    }
    if (event.type === "tool_result") {
      results.add(event.id);
      lastResult = index;
    }
    if (event.type === "data" && event.name === RUN_TAKEN_OVER) takeovers++;
  });
  const interrupted = [...seen]
    .filter(([id, call]) => call.count > 1 && !results.has(id))
    .map(([id, call]) => ({ id, name: call.name, input: call.input }));
  const discard = new Set([...seen].filter(([id, call]) => call.count === 1 && !results.has(id)).map(([id]) => id));
  if (!interrupted.length)
    for (const event of events.slice(lastResult + 1))
      if ("id" in event && event.type !== "tool_result" && event.type !== "interaction_request") discard.add(event.id);
  const kept = events.filter((event) => !("id" in event) || event.type === "tool_result" || !discard.has(event.id));
  return { kept, discard: [...discard], interrupted, takeovers };
}

/**
 * The turn so far as native messages after the input: one assistant message per step (its
 * text and tool calls) with its tool results, which `toModelMessages` turns into the `tool`
 * message that follows it.
 */
export function messagesOfEvents(events: NativeEvent[]): NativeMessage[] {
  const messages: NativeMessage[] = [];
  let current: NativeMessage | undefined;
  let answered = false;
  const texts = new Map<string, ContentBlock>();
  const calls = new Map<string, ContentBlock>();
  const block = (content: ContentBlock) => {
    if (!current || answered) {
      current = { role: "assistant", content: [] };
      messages.push(current);
      answered = false;
    }
    current.content.push(content);
    return content;
  };
  for (const event of events) {
    if (event.type === "message") block({ type: "text", text: event.text });
    else if (event.type === "message_delta") {
      const text = texts.get(event.id) ?? texts.set(event.id, block({ type: "text", text: "" })).get(event.id)!;
      text.text += event.delta;
    } else if (event.type === "tool_call") {
      const input = event.rawInput ?? event.input ?? {};
      const known = calls.get(event.id);
      if (known) known.input = input;
      else calls.set(event.id, block({ type: "tool_call", toolCallId: event.id, toolName: event.name, input }));
    } else if (event.type === "tool_result" && current) {
      current.content.push({
        type: "tool_result",
        toolCallId: event.id,
        toolName: calls.get(event.id)?.toolName,
        output: event.output ?? "",
        isError: event.isError,
      });
      answered = true;
    }
  }
  return messages;
}

/**
 * The input's approval answers the dead process already settled (their result is in the log:
 * the approved call ran, or the denial was told) become that result, as `resumeApprovals` made
 * them, so the continuation does not answer them again: their requests are used, and answering
 * one again would ask the person anew instead of going on.
 */
export function settledApprovals(messages: NativeMessage[], events: NativeEvent[]): NativeMessage[] {
  const results = new Map<string, Extract<NativeEvent, { type: "tool_result" }>>();
  for (const event of events) if (event.type === "tool_result") results.set(event.id, event);
  return messages.map((message) => ({
    ...message,
    content: message.content.map((block): ContentBlock => {
      const result = block.toolCallId ? results.get(block.toolCallId) : undefined;
      if (block.type !== "tool_result" || block.approved === undefined || !block.interactionToken || !result)
        return block;
      const { interactionToken: _answered, ...rest } = block;
      return { ...rest, output: result.output ?? "", isError: result.isError };
    }),
  }));
}

/**
 * The continued turn's text and reasoning blocks get ids of their own: the harness numbers
 * blocks from `msg-0` again, and a fold joins blocks by id.
 */
export function renumberBlocks(event: NativeEvent, prefix: string): NativeEvent {
  switch (event.type) {
    case "message_start":
    case "message_delta":
    case "message_end":
    case "thought_start":
    case "thought_delta":
    case "thought_end":
      return { ...event, id: `${prefix}${event.id}` };
    default:
      return event;
  }
}
