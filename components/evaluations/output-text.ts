/** A message part or message as the engine stores an agent's output (native messages). */
interface MessageLike {
  role?: unknown;
  content?: unknown;
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
          ? (part as { text: string }).text
          : "",
      )
      .join("");
  return "";
}

/**
 * The text a person compares: a string as is; an agent's messages as its last assistant text
 * (its final answer); anything else as JSON. The same reading the evaluators make.
 */
export function outputText(output: unknown): string {
  if (output === undefined || output === null) return "";
  if (typeof output === "string") return output;
  const messages = Array.isArray(output)
    ? output
    : Array.isArray((output as { messages?: unknown }).messages)
      ? (output as { messages: unknown[] }).messages
      : undefined;
  if (messages) {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i] as MessageLike;
      const text = m?.role === "assistant" ? textOfContent(m.content) : "";
      if (text) return text;
    }
  }
  return JSON.stringify(output, null, 2);
}

/** The explanation an evaluator gave with its score (a judge's reason), when it gave one. */
export function reasonOf(outputs: unknown): string | undefined {
  if (!outputs || typeof outputs !== "object" || Array.isArray(outputs)) return undefined;
  const record = outputs as Record<string, unknown>;
  for (const key of ["reason", "explanation", "rationale", "reasoning", "comment", "feedback", "message"])
    if (typeof record[key] === "string" && record[key]) return record[key] as string;
  return undefined;
}
