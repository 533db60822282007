import type { UIMessage } from "ai";
import { uiMessagesFromGenAi, type GenAiMessage } from "@/shared/trace-messages";

interface Block {
  type?: string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
}

const blocksOf = (content: unknown): Block[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? (content as Block[]) : [];

/**
 * An agent's output as the engine stores it (native messages: assistant turns with text and
 * tool calls, tool messages with results) as the chat's UI messages, through the same reading
 * the trace view uses: tool calls show as cards with their results. Undefined when the output is
 * not a list of messages (a prompt's text, a JSON answer).
 */
export function outputMessages(output: unknown): UIMessage[] | undefined {
  const list = Array.isArray(output)
    ? output
    : Array.isArray((output as { messages?: unknown } | null)?.messages)
      ? (output as { messages: unknown[] }).messages
      : undefined;
  if (!list || !list.every((m) => m && typeof m === "object" && "role" in m)) return undefined;
  const outputs: GenAiMessage[] = [];
  const executed = new Map<string, unknown>();
  for (const message of list as { role: string; content: unknown; tool_call_id?: string }[]) {
    if (message.role === "tool") {
      for (const block of blocksOf(message.content))
        if (block.type === "tool_result" && block.toolCallId) executed.set(block.toolCallId, block.output);
      if (message.tool_call_id && !executed.has(message.tool_call_id))
        executed.set(message.tool_call_id, message.content);
      continue;
    }
    if (message.role !== "assistant") continue;
    outputs.push({
      role: "assistant",
      parts: blocksOf(message.content).flatMap((block): Record<string, unknown>[] =>
        block.type === "text" && typeof block.text === "string"
          ? [{ type: "text", content: block.text }]
          : block.type === "tool_call"
            ? [{ type: "tool_call", id: block.toolCallId, name: block.toolName, arguments: block.input }]
            : [],
      ),
    });
  }
  return uiMessagesFromGenAi([], outputs, executed);
}
