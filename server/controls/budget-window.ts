export type BudgetWindow = "day" | "week" | "month";

/** A budget's current window: where it started and when it resets, as instants. */
export interface WindowSpan {
  start: Date;
  resetsAt: Date;
}

/**
 * The calendar window holding `now`, read in `timeZone` (IANA): a day from local midnight, a week
 * from Monday's midnight, a calendar month from the 1st. Local midnight is found by offset, so a
 * day that is 23 or 25 hours long (a DST change) is measured as the zone's clocks say.
 */
export function budgetWindow(window: BudgetWindow, timeZone: string, now: Date): WindowSpan {
  // Every check reads it: the window holding `now` is kept until it ends (Intl's parts are slow).
  const key = `${window}|${timeZone}`;
  const known = windows.get(key);
  if (known && now >= known.start && now < known.resetsAt) return known;
  const span = computeWindow(window, timeZone, now);
  windows.set(key, span);
  return span;
}

const windows = new Map<string, WindowSpan>();

function computeWindow(window: BudgetWindow, timeZone: string, now: Date): WindowSpan {
  const local = localDate(now, timeZone);
  let start: LocalDate;
  let next: LocalDate;
  if (window === "day") {
    start = local;
    next = addDays(local, 1);
  } else if (window === "week") {
    start = addDays(local, -((local.weekday + 6) % 7));
    next = addDays(start, 7);
  } else {
    start = { ...local, day: 1 };
    next =
      local.month === 12
        ? { ...local, year: local.year + 1, month: 1, day: 1 }
        : { ...local, month: local.month + 1, day: 1 };
  }
  return { start: midnight(start, timeZone), resetsAt: midnight(next, timeZone) };
}

/** Whether Intl knows the IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

interface LocalDate {
  year: number;
  month: number;
  day: number;
  /** 0 Sunday .. 6 Saturday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(instant: Date, timeZone: string): Record<string, number> {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  return parts;
}

function localDate(instant: Date, timeZone: string): LocalDate {
  const p = partsOf(instant, timeZone);
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    weekday: new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay(),
  };
}

function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}

/** The zone's offset (ms) at an instant: its wall clock read as UTC, minus the instant. */
function offsetAt(instant: number, timeZone: string): number {
  const p = partsOf(new Date(instant), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/** The instant the zone's clocks read 00:00 on this date (or the first instant after, when midnight is skipped). */
function midnight(date: LocalDate, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day);
  // Two passes settle the offset on either side of a change.
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  return new Date(guess);
}
