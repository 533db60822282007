import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { automationDeliveries, automations } from "@/server/db/schema";
import { eventsSince } from "@/server/events";
import { firingTrigger, insertFirings, type NewFiring } from "./firing-store";
import { matchesFilter, type PayloadCondition } from "./payload-template";

/**
 * Events are written with the writer's clock and committed a little later, so a subscription
 * looks this far behind its cursor each pass: an event committed late is still seen, and seen
 * twice is harmless (one firing per event id).
 */
const LOOKBACK_MS = 30_000;
const EVENTS_PER_PASS = 500;

export const eventKey = (eventId: string) => `event:${eventId}`;

/**
 * Claims active event subscriptions (`FOR UPDATE SKIP LOCKED`), reads the outbox events of their
 * types since their cursor, records a `pending` firing per event that passes the filter and
 * moves the cursor on, in one transaction. An agent-run event of a run this same automation
 * started is passed over, so "run finished" cannot fire itself forever. Returns the firings made.
 */
export async function matchEvents(app: AppContext, limit: number): Promise<number> {
  return app.db.transaction(async (tx) => {
    const subscriptions = await tx
      .select()
      .from(automations)
      .where(and(eq(automations.kind, "event"), eq(automations.isActive, true), isNull(automations.deletedAt)))
      .orderBy(asc(automations.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    let made = 0;
    for (const sub of subscriptions) {
      const since = sub.eventsSince ?? sub.createdAt;
      const cursor = sub.eventCursorAt ?? since;
      const found = await eventsSince(tx, {
        projectId: sub.projectId,
        types: sub.eventTypes ?? [],
        after: new Date(cursor.getTime() - LOOKBACK_MS),
        limit: EVENTS_PER_PASS,
      });
      const fresh = found.filter((event) => event.createdAt > since);
      const ownRuns = new Set(
        (
          await tx
            .select({ runId: automationDeliveries.runId })
            .from(automationDeliveries)
            .where(and(eq(automationDeliveries.automationId, sub.id), isNotNull(automationDeliveries.runId)))
        ).map((row) => row.runId),
      );
      const firings: NewFiring[] = fresh
        .filter((event) => !ownRuns.has(event.attributes.run_id as string))
        .filter((event) => matchesFilter(event.attributes, sub.filter as PayloadCondition[] | null))
        .map((event) => ({
          projectId: sub.projectId,
          automationId: sub.id,
          ...firingTrigger(sub),
          eventKey: eventKey(event.id),
          status: "pending",
          payload: { event_id: event.id, event_type: event.eventType, ...event.attributes },
          createdAt: app.now(),
        }));
      made += (await insertFirings(tx, firings)).length;
      const last = found.at(-1)?.createdAt;
      if (last && last > cursor)
        await tx.update(automations).set({ eventCursorAt: last }).where(eq(automations.id, sub.id));
    }
    return made;
  });
}
