import type { ContentBlock, NativeMessage } from "@/server/streams";

/** The most of a conversation a cold start replays, and of each tool result within it. */
export const HISTORY_WINDOW_CHARS = 100_000;
export const TOOL_RESULT_CHARS = 4_000;

/**
 * A conversation as the one prompt a new Claude Code session starts from: earlier messages as a
 * labelled transcript (the newest 100k characters, each tool result cut to 4k), then the last
 * user message as the request. A fresh process has no memory of the turns before it, so this is
 * how it learns them.
 */
export function flattenHistory(messages: NativeMessage[]): string {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const request = lastUser >= 0 && lastUser === messages.length - 1 ? textOf(messages[lastUser].content) : "";
  const earlier = (request ? messages.slice(0, lastUser) : messages).map(line).filter(Boolean);
  if (!earlier.length) return request;
  let transcript = earlier.join("\n\n");
  if (transcript.length > HISTORY_WINDOW_CHARS)
    transcript = `[earlier messages omitted]\n${transcript.slice(-HISTORY_WINDOW_CHARS)}`;
  const ask = request
    ? `The user's new message:\n${request}`
    : "Continue the conversation from where it stopped (the tool results above are new).";
  return `The conversation so far (you are the assistant):\n<transcript>\n${transcript}\n</transcript>\n\n${ask}`;
}

function line(message: NativeMessage): string {
  const parts = message.content.map((block) => blockText(message.role, block)).filter(Boolean);
  return parts.join("\n");
}

function blockText(role: string, block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ? `[${role}] ${block.text}` : "";
    case "tool_call":
      return `[assistant called tool ${block.toolName ?? "?"} (id ${block.toolCallId ?? "?"}) with ${JSON.stringify(block.input ?? {})}]`;
    case "tool_result": {
      if (block.approved === false) return `[tool result for ${block.toolCallId ?? "?"}: the user denied this call]`;
      if (
        block.approved === true &&
        block.output &&
        typeof block.output === "object" &&
        "interactionToken" in block.output
      ) {
        return `[tool result for ${block.toolCallId ?? "?"}: the user approved this call; call the tool again to run it]`;
      }
      const output = typeof block.output === "string" ? block.output : JSON.stringify(block.output ?? null);
      const cut = output.length > TOOL_RESULT_CHARS ? `${output.slice(0, TOOL_RESULT_CHARS)}... [cut]` : output;
      return `[tool result for ${block.toolCallId ?? "?"}${block.isError ? " (error)" : ""}: ${cut}]`;
    }
    default:
      return `[${role} sent a ${block.type}]`;
  }
}

function textOf(content: ContentBlock[]): string {
  return content
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");
}
