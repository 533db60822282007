import type { AppContext } from "@/server/core/app-context";
import { rawQuery } from "@/server/db";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { checkDueMonitors } from "./check-pass";
import { sendDueNotifications } from "./notification-pass";

/** Monitors claimed per transaction (each owes one check a minute, more after downtime). */
export const MONITOR_BATCH = 500;
/**
 * It polls: time, not a notification, makes a monitor due; the claims (FOR UPDATE SKIP LOCKED,
 * the next check moved on in the same transaction) make each check happen once.
 */
const POLL_MS = 1_000;

/**
 * Whether either part could find work: one statement, so an idle poll is one round trip and no
 * explicit transaction (the check claims in a transaction of its own). The claims still decide.
 */
const DUE = `select
  exists (select 1 from monitors where next_evaluation_at <= $1::timestamptz) as checks,
  exists (select 1 from monitor_notifications where status = 'pending' and next_attempt_at <= $1::timestamptz
    and (lease_until is null or lease_until <= $1::timestamptz)) as messages`;

/** One pass: a batch of due monitors is checked, then due channel messages are sent (the loop repeats while there is work). */
export async function monitorPass(app: AppContext, limit = MONITOR_BATCH): Promise<number> {
  const [due] = await rawQuery<{ checks: boolean; messages: boolean }>(app.db, DUE, [app.now().toISOString()]);
  const checked = due.checks ? await checkDueMonitors(app, limit) : 0;
  // Checks that fired queue messages: this pass sends them.
  return checked + (due.messages || checked > 0 ? await sendDueNotifications(app, limit) : 0);
}

export const monitorWorker: BackgroundWorker = {
  name: "monitors",
  start: (app) => startWakeLoop("monitors", () => monitorPass(app), POLL_MS),
  drain: (app, limit) => monitorPass(app, limit),
};
