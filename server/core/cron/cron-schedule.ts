import { Cron } from "croner";
import { BadRequestError } from "@/server/core/errors";
import { cronInWords } from "./cron-words";

/** A cron expression in an IANA zone, checked: what the scheduler and the preview both use. */
export interface CronSchedule {
  cron: string;
  timezone: string;
}

/**
 * Compiled schedules by zone and expression. Parsing and the zone check cost about a millisecond,
 * and the monitors' check pass asks for every monitor's next minute once a minute (1,000 monitors: a
 * second of CPU without this). A paused Cron only answers questions, so one serves every caller.
 */
const compiled = new Map<string, Cron>();
const MAX_COMPILED = 1_000;

function compile(schedule: CronSchedule): Cron {
  const key = `${schedule.timezone}\n${schedule.cron}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const cron = compileChecked(schedule);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, cron);
  return cron;
}

function compileChecked({ cron, timezone }: CronSchedule): Cron {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5)
    throw new BadRequestError(
      `cron "${cron}" has ${fields.length} fields; write the five of minute hour day-of-month month day-of-week (e.g. "30 2 * * *")`,
      "invalid_cron",
    );
  if (!isTimeZone(timezone))
    throw new BadRequestError(
      `timezone "${timezone}" is not an IANA time zone name (e.g. "Europe/Berlin", "UTC")`,
      "invalid_timezone",
    );
  try {
    // Day-of-month and day-of-week together match when either does, as in Vixie cron.
    return new Cron(cron, { timezone, paused: true, legacyMode: true });
  } catch (error) {
    throw new BadRequestError(`cron "${cron}" does not parse: ${(error as Error).message}`, "invalid_cron");
  }
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Throws a 400 naming what is wrong; also refuses a cron that never fires (`0 0 31 2 *`). */
export function checkCronSchedule(schedule: CronSchedule, from: Date): void {
  if (nextFireTimes(schedule, from, 1).length === 0)
    throw new BadRequestError(`cron "${schedule.cron}" never fires`, "invalid_cron");
}

/**
 * The next `count` fire times strictly after `after`, as instants. A wall time the zone skips
 * (02:30 on the spring-forward night) fires once, at the first instant after the gap; one it
 * repeats (the autumn night) fires once, at its first occurrence (croner's rules).
 */
export function nextFireTimes(schedule: CronSchedule, after: Date, count: number): Date[] {
  return compile(schedule).nextRuns(count, after);
}

/** The next fire time strictly after `after`, or null when the cron has none left. */
export function nextFireTime(schedule: CronSchedule, after: Date): Date | null {
  return compile(schedule).nextRun(after);
}

/** "At 02:30 AM, Monday through Friday" (`cronInWords`), with the zone. */
export function describeCron(schedule: CronSchedule): string {
  compile(schedule);
  return `${cronInWords(schedule.cron)} (${schedule.timezone})`;
}
