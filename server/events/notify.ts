/**
 * LISTEN/NOTIFY channel that wakes webhook fan-out when events it has to fan out are written: the
 * inserts notify in their own statement (emit.ts, insert-batcher.ts), so the notify is delivered
 * only if their transaction commits, and only when an event is left unfanned.
 */
export const EVENTS_CHANNEL = "events_written";
