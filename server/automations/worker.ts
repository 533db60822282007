import type { AppContext } from "@/server/core/app-context";
import { rawQuery } from "@/server/db";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { dispatchFirings } from "./dispatch-pass";
import { matchEvents } from "./event-pass";
import { fireDueSchedules } from "./schedule-pass";

/** Schedules and subscriptions claimed per transaction, firings started per pass. */
const BATCH = 50;
/**
 * How often an idle scheduler looks: fire times are a second late at most. It polls rather than
 * listens: time, not a notification, makes a schedule due, and the claims (FOR UPDATE SKIP
 * LOCKED, the unique firing key) are what make a firing happen once across processes.
 */
const POLL_MS = 1_000;

/**
 * Which of the three passes could find work: one statement, so an idle poll is one round trip
 * and no explicit transaction (each pass claims in a transaction of its own). It over-approximates
 * (an event automation may have no new event); the passes' claims stay what decides.
 */
const WORK = `select
  exists (select 1 from automations where kind = 'schedule' and is_active and deleted_at is null
    and next_fire_at <= $1::timestamptz) as schedules,
  exists (select 1 from automations where kind = 'event' and is_active and deleted_at is null) as events,
  exists (select 1 from automation_deliveries where status in ('pending', 'queued')
    and (lease_until is null or lease_until < $1::timestamptz)) as firings`;

/** One pass: due schedules and matching events become firings, then firings become runs. */
export async function automationPass(app: AppContext, limit = BATCH): Promise<number> {
  const [work] = await rawQuery<{ schedules: boolean; events: boolean; firings: boolean }>(app.db, WORK, [
    app.now().toISOString(),
  ]);
  const schedules = work.schedules ? await fireDueSchedules(app, limit) : 0;
  const events = work.events ? await matchEvents(app, limit) : 0;
  // Firings made by this pass are dispatched by it too.
  const started = work.firings || schedules + events > 0 ? await dispatchFirings(app, limit) : 0;
  return schedules + events + started;
}

export const automationWorker: BackgroundWorker = {
  name: "automations",
  start: (app) => startWakeLoop("automations", () => automationPass(app), POLL_MS),
  drain: (app, limit) => automationPass(app, limit),
};
