import { foldBatch, type ContentBlock, type NativeEvent, type NativeMessage } from "@/server/streams";

/**
 * A finished turn as the native messages a next turn replays: assistant text and tool calls, then
 * each tool result as a `tool` message (server-side tools' results included, so the model does
 * not call them again; a paused client call stays unanswered for the caller to answer).
 */
export function turnMessages(events: NativeEvent[]): NativeMessage[] {
  const out: NativeMessage[] = [];
  const assistant = (block: ContentBlock) => {
    const last = out.at(-1);
    if (last?.role === "assistant") last.content.push(block);
    else out.push({ role: "assistant", content: [block] });
  };
  for (const message of foldBatch(events).messages) {
    if (message.role === "assistant") {
      if (typeof message.content === "string" && message.content) assistant({ type: "text", text: message.content });
    } else if (message.tool_name !== undefined) {
      assistant({
        type: "tool_call",
        toolCallId: message.tool_call_id!,
        toolName: message.tool_name,
        input: message.input ?? {},
      });
    } else {
      out.push({
        role: "tool",
        content: [
          {
            type: "tool_result",
            toolCallId: message.tool_call_id!,
            output: message.content,
            isError: Boolean(message.is_error),
          },
        ],
      });
    }
  }
  return out;
}
