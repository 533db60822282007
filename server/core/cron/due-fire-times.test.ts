import { describe, expect, it } from "vitest";
import { dueFireTimes, MAX_RECORDED_MISSES } from "./due-fire-times";

const at = (iso: string) => new Date(iso);
const hourly = { cron: "0 * * * *", timezone: "UTC" };

describe("dueFireTimes", () => {
  it("nothing due before the planned time", () => {
    const due = dueFireTimes(hourly, at("2026-01-01T10:00:00Z"), at("2026-01-01T09:59:59Z"), 900_000);
    expect(due).toEqual({ fire: null, skipped: [], next: at("2026-01-01T10:00:00Z") });
  });

  it("the planned time fires when it comes, and the next is planned", () => {
    const due = dueFireTimes(hourly, at("2026-01-01T10:00:00Z"), at("2026-01-01T10:00:02Z"), 900_000);
    expect(due).toEqual({ fire: at("2026-01-01T10:00:00Z"), skipped: [], next: at("2026-01-01T11:00:00Z") });
  });

  it("a time missed by more than the window is skipped, not fired", () => {
    const due = dueFireTimes(hourly, at("2026-01-01T10:00:00Z"), at("2026-01-01T10:20:00Z"), 900_000);
    expect(due.fire).toBeNull();
    expect(due.skipped).toEqual([{ at: at("2026-01-01T10:00:00Z"), reason: expect.stringContaining("1200 s late") }]);
  });

  it("a long outage records at most MAX_RECORDED_MISSES times and still fires the latest within the window", () => {
    const minutely = { cron: "* * * * *", timezone: "UTC" };
    const due = dueFireTimes(minutely, at("2026-01-01T00:00:00Z"), at("2026-01-02T00:00:30Z"), 120_000);
    expect(due.fire).toEqual(at("2026-01-02T00:00:00Z"));
    expect(due.skipped).toHaveLength(MAX_RECORDED_MISSES);
    expect(due.skipped.at(-1)?.reason).toContain("not recorded one by one");
    expect(due.next).toEqual(at("2026-01-02T00:01:00Z"));
  });
});
