import { createHash } from "node:crypto";
import type { NativeMessage } from "@/server/streams";

/**
 * What decides whether a parked session may continue: the user texts and the tool-call ids of a
 * conversation, in order (assistant text is left out, so a client that re-renders or trims the
 * model's prose still continues warm). Each tool-call id counts once.
 */
export function historyItems(messages: NativeMessage[]): string[] {
  const items: string[] = [];
  const seen = new Set<string>();
  for (const message of messages) {
    for (const block of message.content) {
      if (message.role === "user" && block.type === "text" && block.text) items.push(`u:${block.text}`);
      if (block.type === "tool_call" && block.toolCallId && !seen.has(block.toolCallId)) {
        seen.add(block.toolCallId);
        items.push(`t:${block.toolCallId}`);
      }
    }
  }
  return items;
}

export interface HistoryFingerprint {
  /** How many items the parked session has seen. */
  length: number;
  hash: string;
}

export function fingerprintOf(items: string[]): HistoryFingerprint {
  const hash = createHash("sha256");
  for (const item of items) hash.update(`${item.length}:${item}`);
  return { length: items.length, hash: hash.digest("hex") };
}

/**
 * The new user texts when `items` continue the conversation a session parked with: its items
 * come first, unchanged, and everything after them is user text. Undefined when the history was
 * edited, cut, or carries tool calls the session never made: the turn must start cold.
 */
export function continuation(parked: HistoryFingerprint, items: string[]): string[] | undefined {
  if (items.length < parked.length) return undefined;
  if (fingerprintOf(items.slice(0, parked.length)).hash !== parked.hash) return undefined;
  const rest = items.slice(parked.length);
  if (!rest.every((item) => item.startsWith("u:"))) return undefined;
  return rest.map((item) => item.slice(2));
}
