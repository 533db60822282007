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
 * Tells the outbox on `db` who takes its events, so a read event nobody takes is written already
 * fanned out and wakes nobody (server/events/insert-batcher.ts). Called by the composition root.
 */
export function useEventTakers(db: Executor, takers: EventTakers): void {
  takersOf(db).takers = takers;
}

/** The takers the composition root gave `db`'s outbox, or "every event". */
export function eventTakersOf(db: Executor): EventTakers {
  return takersOf(db).takers;
}
