import type { Redactor } from "@/server/redaction";
import type { NativeEvent } from "@/server/streams";
import type { NewRun } from "./run-store";

/**
 * Tracks the text and reasoning blocks a run's queued events leave open. While a block is open its
 * deltas are held back from the log when the project redacts: a value streamed in pieces (a card
 * number in four deltas) is only found in the block's whole text.
 */
export class OpenBlocks {
  private readonly open = new Set<string>();

  /** Whether, after `event`, no text or reasoning block is open. */
  see(event: NativeEvent): boolean {
    if (event.type === "message_start" || event.type === "thought_start") this.open.add(`${event.type}:${event.id}`);
    else if (event.type === "message_end") this.open.delete(`message_start:${event.id}`);
    else if (event.type === "thought_end") this.open.delete(`thought_start:${event.id}`);
    return this.open.size === 0;
  }
}

/**
 * A batch of events as the project's rules store them. Each block's deltas are redacted as one text
 * (joined, redacted, then the whole text in its first delta and "" in the others, so every delta
 * keeps its `seq`); every other event has its strings redacted but for the fields that name and
 * type it, which replay and folding rely on.
 */
export function redactEvents(events: readonly NativeEvent[], redactor: Redactor): NativeEvent[] {
  if (!redactor.active) return events as NativeEvent[];
  const out = [...events];
  const blocks = new Map<string, number[]>();
  events.forEach((event, i) => {
    if (event.type === "message_delta" || event.type === "thought_delta") {
      const key = `${event.type}:${event.id}`;
      const at = blocks.get(key);
      if (at) at.push(i);
      else blocks.set(key, [i]);
      return;
    }
    out[i] = redactEvent(event, redactor);
  });
  for (const positions of blocks.values()) {
    const deltas = positions.map((i) => events[i] as Extract<NativeEvent, { delta: string }>);
    const text = deltas.map((d) => d.delta).join("");
    const redacted = redactor.text(text);
    if (redacted === text) continue;
    positions.forEach((at, n) => (out[at] = { ...deltas[n], delta: n === 0 ? redacted : "" }));
  }
  return out;
}

/** Fields that type and name an event (its tool, its block, its data part): kept as they are. */
const NAMING = new Set(["type", "id", "name", "kind", "stopReason", "traceId", "mediaType"]);

function redactEvent(event: NativeEvent, redactor: Redactor): NativeEvent {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) out[key] = NAMING.has(key) ? value : redactor.value(value);
  return out as NativeEvent;
}

/**
 * The run's row as stored: its recorded request's data (the input messages and an inline agent's
 * template) redacted; a takeover then continues from those.
 */
export function redactNewRun(run: NewRun, redactor: Redactor): NewRun {
  const data = run.request?.body.data;
  if (!redactor.active || !data) return run;
  return { ...run, request: { ...run.request!, body: { ...run.request!.body, data: redactor.value(data) } } };
}
