import type { AppContext } from "@/server/core/app-context";
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

/** One pass: a batch of due monitors is checked, then due channel messages are sent (the loop repeats while there is work). */
export async function monitorPass(app: AppContext, limit = MONITOR_BATCH): Promise<number> {
  return (await checkDueMonitors(app, limit)) + (await sendDueNotifications(app, limit));
}

export const monitorWorker: BackgroundWorker = {
  name: "monitors",
  start: (app) => startWakeLoop("monitors", () => monitorPass(app), POLL_MS),
  drain: (app, limit) => monitorPass(app, limit),
};
