import { dueFireTimes } from "@/server/core/cron/due-fire-times";

/** Monitors are checked on every minute of UTC: a schedule like the automations', with this cron. */
const EVERY_MINUTE = { cron: "* * * * *", timezone: "UTC" };
/** After downtime, missed minutes up to this old are checked one by one, in order; older ones are not. */
export const CATCH_UP_MS = 15 * 60_000;

export const nextMinute = (after: Date) => new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);

/**
 * The instants a monitor owes at `now`, its planned one being `planned` (the schedule's due fire
 * times): every missed minute within the catch-up window, oldest first, so a threshold crossed
 * and left while no worker ran still fires and resolves; and the next instant after `now`.
 */
export function dueChecks(planned: Date, now: Date): { instants: Date[]; next: Date } {
  const due = dueFireTimes(EVERY_MINUTE, planned, now, CATCH_UP_MS);
  const missed = due.skipped.filter((m) => now.getTime() - m.at.getTime() <= CATCH_UP_MS).map((m) => m.at);
  const instants = [...missed, ...(due.fire ? [due.fire] : [])].sort((a, b) => a.getTime() - b.getTime());
  return { instants, next: due.next ?? nextMinute(now) };
}
