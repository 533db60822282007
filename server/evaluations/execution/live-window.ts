const MINUTE = 60_000;

/** Ticks catch up at most this far back (a server down for a day does not score a day in one go). */
export const MAX_CATCH_UP_MINUTES = 60;

export function floorToMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / MINUTE) * MINUTE);
}

export interface LiveWindow {
  oldest: Date;
  newest: Date;
  /** Minutes, the scenarios' `interval`. */
  interval: number;
}

/**
 * The window a tick evaluates for one live run. Given an interval (the admin route, as in the
 * reference implementation): exactly [tick − interval, tick]. Without (the workers' own minute
 * tick): from the end of the run's last window to the tick's minute, so a tick that was missed (a
 * restart, a late cron) is caught up, at most MAX_CATCH_UP_MINUTES back. Null when there is nothing
 * new.
 */
export function liveWindow(tick: Date, tickedAt: Date | null, interval?: number): LiveWindow | null {
  if (interval !== undefined) {
    const newest = floorToMinute(tick);
    return { oldest: new Date(newest.getTime() - interval * MINUTE), newest, interval };
  }
  const newest = floorToMinute(tick);
  const floor = new Date(newest.getTime() - MAX_CATCH_UP_MINUTES * MINUTE);
  const oldest = tickedAt && tickedAt > floor ? floorToMinute(tickedAt) : floor;
  if (newest <= oldest) return null;
  return { oldest, newest, interval: Math.round((newest.getTime() - oldest.getTime()) / MINUTE) };
}
