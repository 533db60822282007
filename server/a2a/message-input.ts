import type { Message } from "@a2a-js/sdk";
import { RequestMalformedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { invokeRequestSchema } from "@/server/agent-runs";

/** What an A2A message asks of the agent: its text, and the context (the agent session) it continues. */
export interface MessageInput {
  text: string;
  /** The caller's context id, or none: the task then starts a new context. */
  contextId?: string;
}

/**
 * The message's text parts, joined. File and data parts are refused rather than dropped: the
 * agent would answer a question it never saw whole. A message naming a task asks to continue that
 * task, which a run that ended cannot do: continue the context instead.
 */
export function messageInput(message: Message | undefined): MessageInput {
  if (!message) throw new RequestMalformedError("params.message is required");
  if (message.taskId)
    throw new UnsupportedOperationError(
      "A task here is one run and ends with it: send the next message without taskId and with the same contextId to continue the conversation",
    );
  const texts: string[] = [];
  for (const part of message.parts) {
    if (part.content?.$case !== "text")
      throw new RequestMalformedError(
        `Only text parts are accepted; this message has a ${part.content?.$case ?? "empty"} part`,
      );
    texts.push(part.content.value);
  }
  const text = texts.join("\n");
  if (!text.trim()) throw new RequestMalformedError("The message has no text");
  // The context is the agent session: its id follows the session id's rule.
  if (message.contextId && !invokeRequestSchema.shape.session_id.safeParse(message.contextId).success)
    throw new RequestMalformedError("contextId is 1 to 128 of A-Z a-z 0-9 . _ : -");
  return { text, contextId: message.contextId || undefined };
}
