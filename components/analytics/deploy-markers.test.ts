import { describe, expect, it } from "vitest";
import { deployMarkers } from "./deploy-markers";

// Three hourly buckets from 10:00; the window ends at 13:00.
const result = {
  buckets: ["10", "11", "12"].map((hour) => ({ timestamp: `2026-03-02T${hour}:00:00.000Z` })),
  windowing: { newest: "2026-03-02T13:00:00.000Z" },
};

describe("deployMarkers", () => {
  it("puts each deploy in the bucket it happened in, named by its environment", () => {
    expect(
      deployMarkers(result, [
        { at: "2026-03-02T10:00:00.000Z", env: { slug: "staging" } },
        { at: "2026-03-02T11:59:59.999Z", env: { slug: "production" } },
        { at: "2026-03-02T12:30:00.000Z", env: { slug: "production" } },
      ]),
    ).toEqual([
      { bucket: 0, label: "deploy staging" },
      { bucket: 1, label: "deploy production" },
      { bucket: 2, label: "deploy production" },
    ]);
  });

  it("leaves out deploys outside the window and those without a time", () => {
    expect(
      deployMarkers(result, [
        { at: "2026-03-02T09:59:59.999Z", env: { slug: "staging" } },
        { at: "2026-03-02T13:00:00.000Z", env: { slug: "staging" } },
        { env: { slug: "staging" } },
      ]),
    ).toEqual([]);
  });

  it("makes the deploys of one bucket one marker naming each environment once", () => {
    expect(
      deployMarkers(result, [
        { at: "2026-03-02T11:10:00.000Z", env: { slug: "staging" } },
        { at: "2026-03-02T11:20:00.000Z", env: { slug: "production" } },
        { at: "2026-03-02T11:30:00.000Z", env: { slug: "staging" } },
      ]),
    ).toEqual([{ bucket: 1, label: "deploy staging, production" }]);
  });

  it("marks nothing on a window without buckets", () => {
    expect(
      deployMarkers({ buckets: [], windowing: result.windowing }, [{ at: "2026-03-02T10:30:00.000Z", env: {} }]),
    ).toEqual([]);
  });
});
