import { describe, expect, it } from "vitest";
import { budgetWindow, isTimeZone } from "./budget-window";

const at = (iso: string) => new Date(iso);

describe("budgetWindow", () => {
  it("a day runs from the zone's midnight to the next", () => {
    const span = budgetWindow("day", "Europe/Paris", at("2026-11-27T03:30:00Z"));
    expect(span.start.toISOString()).toBe("2026-11-26T23:00:00.000Z");
    expect(span.resetsAt.toISOString()).toBe("2026-11-27T23:00:00.000Z");
  });

  it("reads the local date, not UTC's: 20:00 in New York is the next day in UTC", () => {
    const span = budgetWindow("day", "America/New_York", at("2026-11-28T01:00:00Z"));
    expect(span.start.toISOString()).toBe("2026-11-27T05:00:00.000Z");
  });

  it("a week starts on Monday", () => {
    // 2026-11-27 is a Friday.
    const span = budgetWindow("week", "UTC", at("2026-11-27T12:00:00Z"));
    expect(span.start.toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(span.resetsAt.toISOString()).toBe("2026-11-30T00:00:00.000Z");
  });

  it("a calendar month crosses a DST change at the zone's own midnight", () => {
    const span = budgetWindow("month", "Europe/Paris", at("2026-10-15T12:00:00Z"));
    expect(span.start.toISOString()).toBe("2026-09-30T22:00:00.000Z");
    expect(span.resetsAt.toISOString()).toBe("2026-10-31T23:00:00.000Z");
  });

  it("December's month resets on January 1st", () => {
    expect(budgetWindow("month", "Asia/Kathmandu", at("2026-12-31T12:00:00Z")).resetsAt.toISOString()).toBe(
      "2026-12-31T18:15:00.000Z",
    );
  });

  it("knows IANA names", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
