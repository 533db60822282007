import { describe, expect, it } from "vitest";
import { floorToMinute, liveWindow } from "./live-window";

const at = (iso: string) => new Date(iso);

describe("live windows", () => {
  it("takes exactly [tick - interval, tick] when the interval is given", () => {
    expect(liveWindow(at("2026-01-01T10:05:30Z"), null, 5)).toEqual({
      oldest: at("2026-01-01T10:00:00Z"),
      newest: at("2026-01-01T10:05:00Z"),
      interval: 5,
    });
  });
  it("continues from the last window, and has nothing new within the same minute", () => {
    expect(liveWindow(at("2026-01-01T10:01:10Z"), at("2026-01-01T10:00:00Z"))).toEqual({
      oldest: at("2026-01-01T10:00:00Z"),
      newest: at("2026-01-01T10:01:00Z"),
      interval: 1,
    });
    expect(liveWindow(at("2026-01-01T10:00:59Z"), at("2026-01-01T10:00:00Z"))).toBeNull();
  });
  it("catches up missed minutes, at most an hour back", () => {
    expect(liveWindow(at("2026-01-01T10:04:00Z"), at("2026-01-01T10:00:00Z"))?.interval).toBe(4);
    expect(liveWindow(at("2026-01-01T12:00:00Z"), at("2026-01-01T08:00:00Z"))).toEqual({
      oldest: at("2026-01-01T11:00:00Z"),
      newest: at("2026-01-01T12:00:00Z"),
      interval: 60,
    });
    expect(floorToMinute(at("2026-01-01T10:00:59.999Z"))).toEqual(at("2026-01-01T10:00:00Z"));
  });
});
