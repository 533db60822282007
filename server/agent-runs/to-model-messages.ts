import type { AssistantModelMessage, ModelMessage, ToolResultPart, UserModelMessage } from "ai";
import type { ContentBlock, NativeMessage } from "@/server/streams";

type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type UserPart = Exclude<UserModelMessage["content"], string>[number];

/**
 * Native messages to AI SDK model messages. A tool_call block goes on the assistant message; its
 * tool_result (wherever it was sent) becomes a `tool` message right after, so a replayed tool turn
 * resumes from the result instead of calling the tool again. A call nobody answered (the user
 * wrote on instead of fulfilling a client tool) is left out: the model can call it again, and
 * the SDK refuses a history with an unanswered call.
 */
export function toModelMessages(messages: NativeMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const toolNames = new Map<string, string>();
  const answered = new Set(
    messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result").map((b) => b.toolCallId!)),
  );
  for (const message of messages) {
    const role = message.role === "developer" ? "system" : message.role === "function" ? "tool" : message.role;
    const results = message.content.filter((b) => b.type === "tool_result");
    const rest = message.content.filter((b) => b.type !== "tool_result");
    if (role === "system") {
      const text = rest
        .filter((b) => b.type === "text")
        .map((b) => b.text ?? "")
        .join("\n");
      if (text) out.push({ role: "system", content: text });
    } else if (role === "assistant") {
      const content = rest
        .filter((b) => b.type !== "tool_call" || answered.has(b.toolCallId!))
        .flatMap((block) => assistantPart(block, toolNames));
      if (content.length) out.push({ role: "assistant", content });
    } else if (role === "user") {
      const content = rest.flatMap(userPart);
      if (content.length) out.push({ role: "user", content });
    }
    if (results.length) {
      out.push({
        role: "tool",
        content: results.map((block): ToolResultPart => ({
          type: "tool-result",
          toolCallId: block.toolCallId!,
          toolName: block.toolName ?? toolNames.get(block.toolCallId!) ?? "tool",
          output: resultOutput(block),
        })),
      });
    }
  }
  return out;
}

function assistantPart(block: ContentBlock, toolNames: Map<string, string>): AssistantPart[] {
  if (block.type === "text" && block.text) return [{ type: "text" as const, text: block.text }];
  if (block.type === "tool_call") {
    toolNames.set(block.toolCallId!, block.toolName ?? "tool");
    return [
      {
        type: "tool-call" as const,
        toolCallId: block.toolCallId!,
        toolName: block.toolName ?? "tool",
        input: block.input ?? {},
      },
    ];
  }
  return [];
}

function userPart(block: ContentBlock): UserPart[] {
  if (block.type === "text") return block.text ? [{ type: "text" as const, text: block.text }] : [];
  const payload = block.data ?? (block.uri ? new URL(block.uri) : undefined);
  if (!payload) return [];
  if (block.type === "image") return [{ type: "image" as const, image: payload, mediaType: block.mimeType }];
  if (block.type === "resource")
    return [{ type: "file" as const, data: payload, mediaType: block.mimeType ?? "application/octet-stream" }];
  return [];
}

function resultOutput(block: ContentBlock): ToolResultPart["output"] {
  if (block.approved === false) return { type: "execution-denied", reason: "The user denied this tool call." };
  const value = block.output ?? null;
  if (block.isError)
    return typeof value === "string" ? { type: "error-text", value } : { type: "error-json", value: value as never };
  return typeof value === "string" ? { type: "text", value } : { type: "json", value: value as never };
}
