import { describe, expect, it } from "vitest";
import { cronInWords } from "./cron-words";

describe("cronInWords", () => {
  it.each([
    // Listed hours under a minute field that is not one minute are spans, not instants.
    ["* 18,19 * * *", "Every minute, from 06:00 PM to 07:59 PM"],
    ["*/5 18,19 * * *", "Every 5 minutes, from 06:00 PM to 07:59 PM"],
    ["* 9,18 * * 1-5", "Every minute, from 09:00 AM to 09:59 AM and from 06:00 PM to 06:59 PM, Monday through Friday"],
    ["15,45 18 * * *", "At 15 and 45 minutes past the hour, from 06:00 PM to 06:59 PM"],
    ["* 9-11,12 * * *", "Every minute, from 09:00 AM to 12:59 PM"],
    // cronstrue's own words where they already say what fires.
    ["15 18,19 * * *", "At 06:15 PM and 07:15 PM"],
    ["0 9,18 * * *", "At 09:00 AM and 06:00 PM"],
    ["* 18 * * *", "Every minute, between 06:00 PM and 06:59 PM"],
    ["30 2 * * 1-5", "At 02:30 AM, Monday through Friday"],
    ["* * * * *", "Every minute"],
    ["* */2 * * *", "Every minute, every 2 hours"],
  ])("%s: %s", (cron, words) => expect(cronInWords(cron)).toBe(words));
});
