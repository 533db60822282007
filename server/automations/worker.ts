import type { AppContext } from "@/server/core/app-context";
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

/** One pass: due schedules and matching events become firings, then firings become runs. */
export async function automationPass(app: AppContext, limit = BATCH): Promise<number> {
  const schedules = await fireDueSchedules(app, limit);
  const events = await matchEvents(app, limit);
  const started = await dispatchFirings(app, limit);
  return schedules + events + started;
}

export const automationWorker: BackgroundWorker = {
  name: "automations",
  start: (app) => startWakeLoop("automations", () => automationPass(app), POLL_MS),
  drain: (app, limit) => automationPass(app, limit),
};
