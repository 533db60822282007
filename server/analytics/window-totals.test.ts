import { describe, expect, it } from "vitest";
import { grainSegments } from "./window-totals";

const t = (iso: string) => Date.parse(iso);
const seg = (s: { grain: string; from: number; to: number }) => [
  s.grain,
  new Date(s.from).toISOString().slice(0, 16),
  new Date(s.to).toISOString().slice(0, 16),
];

describe("grainSegments", () => {
  it("reads whole days and hours at their grain, quarter hours only at the edges", () => {
    expect(grainSegments(t("2026-01-01T10:45:00Z"), t("2026-01-04T02:30:00Z")).map(seg)).toEqual([
      ["quarter", "2026-01-01T10:45", "2026-01-01T11:00"],
      ["hour", "2026-01-01T11:00", "2026-01-02T00:00"],
      ["day", "2026-01-02T00:00", "2026-01-04T00:00"],
      ["hour", "2026-01-04T00:00", "2026-01-04T02:00"],
      ["quarter", "2026-01-04T02:00", "2026-01-04T02:30"],
    ]);
  });

  it("keeps a short window in quarter hours, and an hour-aligned one in hours", () => {
    expect(grainSegments(t("2026-01-01T10:15:00Z"), t("2026-01-01T10:45:00Z")).map(seg)).toEqual([
      ["quarter", "2026-01-01T10:15", "2026-01-01T10:45"],
    ]);
    expect(grainSegments(t("2026-01-01T10:00:00Z"), t("2026-01-01T12:00:00Z")).map(seg)).toEqual([
      ["hour", "2026-01-01T10:00", "2026-01-01T12:00"],
    ]);
  });
});
