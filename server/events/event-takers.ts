import { processWide } from "@/server/core/process-wide";
import type { Executor } from "@/server/db";

/**
 * Whether anything downstream of the outbox takes an event, as an SQL condition over two SQL
 * expressions, the event's project id and its type. The outbox does not know its consumers (they
 * sit above it): webhooks writes this condition over its subscriptions, and the composition root
 * hands it to each database's outbox (`useEventTakers`).
 */
export type EventTakers = (projectId: string, eventType: string) => string;

/** With no takers known, every event is taken: it waits for fan-out, which decides (correct, only slower). */
const EVERY_EVENT: EventTakers = () => "true";

const takersOf = processWide<Executor, { takers: EventTakers }>("event-takers", () => ({ takers: EVERY_EVENT }));

/**
 * A change's transaction does not say which database it belongs to, so its event is decided by
 * the takers a composition root last gave in this process: the condition is SQL over the tables
 * (webhooks' subscriptions), the same for every database one process opens.
 */
const inTransactions = processWide<typeof globalThis, { takers: EventTakers }>("event-takers.changes", () => ({
  takers: EVERY_EVENT,
}));

/**
 * Tells the outbox on `db` who takes its events, so an event nobody takes is written already
 * fanned out and wakes nobody (server/events/insert-batcher.ts for reads, emit.ts for changes).
 * Called by the composition root.
 */
export function useEventTakers(db: Executor, takers: EventTakers): void {
  takersOf(db).takers = takers;
  inTransactions(globalThis).takers = takers;
}

/** The takers the composition root gave `db`'s outbox, or "every event". */
export function eventTakersOf(db: Executor): EventTakers {
  return takersOf(db).takers;
}

/** The takers for a change's event written in its transaction (see `inTransactions`). */
export function changeEventTakers(): EventTakers {
  return inTransactions(globalThis).takers;
}
