import { describe, expect, it } from "vitest";
import { zoneTime } from "./zone-time";

describe("zoneTime", () => {
  it("reads a fire time in the schedule's zone, not UTC", () => {
    expect(zoneTime("2026-11-30T08:00:00Z", "Europe/Paris")).toContain("09:00");
    expect(zoneTime("2026-07-01T08:00:00Z", "Europe/Paris")).toContain("10:00");
    expect(zoneTime("2026-11-30T08:00:00Z", "America/New_York")).toContain("03:00");
    expect(zoneTime("2026-11-30T08:00:00Z", "Not/AZone")).toContain("08:00");
  });
});
