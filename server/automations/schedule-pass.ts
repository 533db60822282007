import { and, asc, eq, isNull, lte } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { automations } from "@/server/db/schema";
import { DEFAULT_CATCH_UP_SECONDS } from "./automation-input";
import { firingTrigger, insertFirings, type NewFiring } from "./firing-store";
import { dueFireTimes } from "@/server/core/cron/due-fire-times";
import { isUuid } from "@/shared/ids";

/** The key of a schedule's firing: its planned instant, so one fire time is one firing. */
const SCHEDULE_KEY_PREFIX = "schedule:";
export const scheduleEventKey = (at: Date) => `${SCHEDULE_KEY_PREFIX}${at.toISOString()}`;

/** A schedule's event as the reference names it, `<schedule id>:<tick>`. */
export const scheduleEventId = (scheduleId: string, tick: string) => `${scheduleId}:${tick}`;

/** The reference's event id of a firing: a schedule's key (`schedule:<tick>`) as `<schedule id>:<tick>`, any other key as it is. */
export const referenceEventId = (automationId: string, eventKey: string) =>
  eventKey.startsWith(SCHEDULE_KEY_PREFIX)
    ? scheduleEventId(automationId, eventKey.slice(SCHEDULE_KEY_PREFIX.length))
    : eventKey;

/** An ISO 8601 date-time with its offset (`Z` or `±hh:mm`), as either implementation writes a tick. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The inverse of `referenceEventId`: `<schedule id>:<tick>` is that schedule's firing
 * `schedule:<tick>`; any other id is the key itself. The tick may be written as the reference
 * implementation writes it (`…T09:00:00+00:00`): one instant is one firing, however it is spelled.
 */
export function firingKeyOfEventId(eventId: string): { eventKey: string; automationId?: string } {
  // A UUID is 36 characters; the tick follows its colon.
  const [id, tick] = [eventId.slice(0, 36), eventId.slice(37)];
  if (!isUuid(id) || eventId[36] !== ":" || !tick) return { eventKey: eventId };
  const instant = ISO_INSTANT.test(tick) ? new Date(tick) : undefined;
  const at = instant && !Number.isNaN(instant.getTime()) ? instant.toISOString() : tick;
  return { eventKey: `${SCHEDULE_KEY_PREFIX}${at}`, automationId: id.toLowerCase() };
}

/**
 * Claims schedules whose fire time has come (`FOR UPDATE SKIP LOCKED`: each is handled by one
 * process), records what they owe as firings (one `pending` firing at most, the missed times
 * as `skipped`) and moves their next fire time on, all in one transaction. Starting the runs is
 * the dispatcher's (`dispatch-pass.ts`). Returns how many schedules it handled.
 */
export async function fireDueSchedules(app: AppContext, limit: number): Promise<number> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(automations)
      .where(
        and(
          eq(automations.kind, "schedule"),
          eq(automations.isActive, true),
          isNull(automations.deletedAt),
          lte(automations.nextFireAt, now),
        ),
      )
      .orderBy(asc(automations.nextFireAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    for (const row of due) {
      const graceMs = (row.catchUpSeconds ?? DEFAULT_CATCH_UP_SECONDS) * 1000;
      const owed = dueFireTimes({ cron: row.cron!, timezone: row.timezone! }, row.nextFireAt!, now, graceMs);
      const base = { projectId: row.projectId, automationId: row.id, ...firingTrigger(row), createdAt: now };
      const firings: NewFiring[] = owed.skipped.map((miss) => ({
        ...base,
        eventKey: scheduleEventKey(miss.at),
        status: "skipped",
        scheduledAt: miss.at,
        error: miss.reason,
      }));
      if (owed.fire)
        firings.push({
          ...base,
          eventKey: scheduleEventKey(owed.fire),
          status: "pending",
          scheduledAt: owed.fire,
          payload: { scheduled_at: owed.fire.toISOString() },
        });
      await insertFirings(tx, firings);
      await tx
        .update(automations)
        .set({ nextFireAt: owed.next, ...(owed.fire ? { lastFiredAt: owed.fire } : {}) })
        .where(eq(automations.id, row.id));
    }
    return due.length;
  });
}
