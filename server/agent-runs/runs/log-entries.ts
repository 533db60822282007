import type { NativeEvent } from "@/server/streams";

type DeltaType = "message_delta" | "thought_delta";

/**
 * Consecutive deltas of one block stored as one entry: `deltas[i]` is the event at the entry's
 * position + i, so every delta keeps its own `seq` and is given back exactly as it came.
 */
export interface DeltaRun {
  type: DeltaType;
  id: string;
  deltas: string[];
}

/** What a row of `agent_run_events.events` holds: events, and runs of deltas (`DeltaRun`). */
export type LogEntry = NativeEvent | DeltaRun;

/** A delta with nothing but `type`, `id` and `delta`, in that order: it can be rebuilt from a run. */
function plainDelta(event: NativeEvent): event is Extract<NativeEvent, { type: DeltaType }> {
  if (event.type !== "message_delta" && event.type !== "thought_delta") return false;
  let keys = 0;
  for (const key in event) {
    if (key !== (keys === 0 ? "type" : keys === 1 ? "id" : keys === 2 ? "delta" : undefined)) return false;
    keys++;
  }
  return keys === 3 && typeof event.delta === "string";
}

/**
 * The entries a batch of events is stored as: two or more consecutive plain deltas of one block
 * become one `DeltaRun`; everything else (a lone delta too) is stored as it is. A model streams
 * mostly deltas of a few characters, so this stores their text instead of one JSON object each.
 */
export function toLogEntries(events: readonly NativeEvent[]): LogEntry[] {
  const entries: LogEntry[] = [];
  let run: DeltaRun | undefined;
  let single: Extract<NativeEvent, { type: DeltaType }> | undefined;
  for (const event of events) {
    if (plainDelta(event)) {
      if (run && run.type === event.type && run.id === event.id) {
        run.deltas.push(event.delta);
        continue;
      }
      if (single && single.type === event.type && single.id === event.id) {
        run = { type: event.type, id: event.id, deltas: [single.delta, event.delta] };
        entries[entries.length - 1] = run;
        single = undefined;
        continue;
      }
      entries.push(event);
      single = event;
      run = undefined;
      continue;
    }
    entries.push(event);
    single = undefined;
    run = undefined;
  }
  return entries;
}

function isDeltaRun(entry: LogEntry): entry is DeltaRun {
  return Array.isArray((entry as Partial<DeltaRun>).deltas);
}

/** The events of a stored row, numbered from the row's `seq`; the inverse of `toLogEntries`. */
export function fromLogEntries(seq: number, entries: readonly LogEntry[]): Array<{ seq: number; event: NativeEvent }> {
  const out: Array<{ seq: number; event: NativeEvent }> = [];
  for (const entry of entries) {
    if (isDeltaRun(entry)) {
      for (const delta of entry.deltas) out.push({ seq: seq++, event: { type: entry.type, id: entry.id, delta } });
    } else {
      out.push({ seq: seq++, event: entry });
    }
  }
  return out;
}
