import { nextFireTime, type CronSchedule } from "./cron-schedule";

/** Missed fire times recorded one by one at most; a longer outage says how many were left out. */
export const MAX_RECORDED_MISSES = 100;

export interface MissedFireTime {
  at: Date;
  reason: string;
}

export interface DueFireTimes {
  /** The one fire time that starts a run now: the latest due one within the grace window. */
  fire: Date | null;
  /** Due times that will not run, each with why (older than the window, or folded into `fire`). */
  skipped: MissedFireTime[];
  /** The schedule's next fire time after `now`. */
  next: Date | null;
}

/**
 * What a schedule owes at `now`, its planned time being `planned`: every fire time from `planned`
 * up to `now` is due. The latest of them fires if it is at most `graceMs` old (after downtime,
 * one firing, not one per missed tick); the others are recorded as skipped. Pure.
 */
export function dueFireTimes(schedule: CronSchedule, planned: Date, now: Date, graceMs: number): DueFireTimes {
  const due: Date[] = [];
  let truncated = false;
  for (let at: Date | null = planned; at && at <= now; at = nextFireTime(schedule, at)) {
    if (due.length === MAX_RECORDED_MISSES + 1) {
      truncated = true;
      break;
    }
    due.push(at);
  }
  let latest = due.at(-1) ?? null;
  if (truncated) {
    // Past the cap: the latest due time is found from now, not by walking every tick.
    const before = nextFireTime(schedule, new Date(now.getTime() - graceMs - 1));
    latest = before && before <= now ? lastAtOrBefore(schedule, before, now) : null;
    due.pop();
  }
  const fire = latest && now.getTime() - latest.getTime() <= graceMs ? latest : null;
  const skipped: MissedFireTime[] = due
    .filter((at) => at.getTime() !== fire?.getTime())
    .map((at) => ({
      at,
      reason:
        now.getTime() - at.getTime() > graceMs
          ? `missed: ${Math.round((now.getTime() - at.getTime()) / 1000)} s late, past the schedule's catch-up window of ${graceMs / 1000} s`
          : `missed: folded into the firing at ${fire?.toISOString()} (one firing after downtime, not one per missed time)`,
    }));
  if (truncated && skipped.length)
    skipped[skipped.length - 1].reason +=
      `; more fire times up to ${now.toISOString()} were missed and are not recorded one by one`;
  return { fire, skipped, next: nextFireTime(schedule, now) };
}

function lastAtOrBefore(schedule: CronSchedule, from: Date, now: Date): Date {
  let last = from;
  for (let at = nextFireTime(schedule, from); at && at <= now; at = nextFireTime(schedule, at)) last = at;
  return last;
}
