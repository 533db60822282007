const MAX_TITLE = 80;

interface MessageLike {
  role?: unknown;
  parts?: unknown;
}

/** A session's name in the list: its first user message, on one line, cut at 80 characters. */
export function sessionTitle(messages: MessageLike[]): string {
  for (const message of messages) {
    if (message.role !== "user" || !Array.isArray(message.parts)) continue;
    const text = message.parts
      .map((part) =>
        part && typeof part === "object" && (part as { type?: unknown }).type === "text"
          ? String((part as { text?: unknown }).text ?? "")
          : "",
      )
      .join(" ")
      .replace(/\s+/g, " ")
      .trim();
    if (text) return text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE - 1)}…` : text;
  }
  return "Untitled chat";
}
