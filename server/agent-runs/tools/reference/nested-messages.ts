import type { NativeMessage } from "@/server/streams";

/**
 * A reference tool's arguments as the nested run's `data.inputs.messages`: arguments carrying a
 * `messages` list are those inputs as they are; any other arguments become one user message
 * holding their JSON, so an agent workflow reads them as its request.
 */
export function nestedMessages(input: unknown): unknown[] {
  const messages = (input as { messages?: unknown } | null)?.messages;
  if (Array.isArray(messages)) return messages;
  const user: NativeMessage = { role: "user", content: [{ type: "text", text: JSON.stringify(input ?? {}) }] };
  return [user];
}
