import type { ModelMessage, SystemModelMessage } from "ai";

/**
 * The AI SDK's prompt for a conversation that may carry system messages (a template, an OpenAI
 * request, a judge's prompt): the leading ones go in `system`, where the SDK wants them and puts
 * them first in the provider's request, so the request is the same. A system message the caller
 * placed later in the conversation (the OpenAI protocol allows it) stays where it was; it is the
 * API caller's own, so `allowSystemInMessages` says it is meant.
 */
export function systemPromptParts(
  base: string | undefined,
  messages: ModelMessage[],
): { system?: SystemModelMessage[]; messages: ModelMessage[]; allowSystemInMessages?: true } {
  const first = messages.findIndex((m) => m.role !== "system");
  // Only system messages: the SDK needs at least one message, so they stay (the caller's own).
  if (first === -1)
    return { ...(base ? { system: [{ role: "system", content: base }] } : {}), messages, allowSystemInMessages: true };
  const leading = messages.slice(0, first) as SystemModelMessage[];
  const rest = messages.slice(first);
  const system = [...(base ? [{ role: "system" as const, content: base }] : []), ...leading];
  return {
    ...(system.length ? { system } : {}),
    messages: rest,
    ...(rest.some((m) => m.role === "system") ? { allowSystemInMessages: true as const } : {}),
  };
}
