import { describe, expect, it } from "vitest";
import { withProgress, withRound } from "./stream-updates";
import type { Optimization, OptimizationProgress, Round } from "./types";

const progress = (extra: Partial<OptimizationProgress> = {}): OptimizationProgress => ({
  round: 0,
  rounds: 2,
  candidate: 0,
  candidates: 2,
  cells_done: 0,
  cells_total: 24,
  spend_usd: "0",
  phase: "queued",
  ...extra,
});
const round = (n: number, best: number): Round => ({ round: n, candidates: [], best_score: best });
const optimization = (extra: Partial<Optimization> = {}) =>
  ({ id: "o", status: "queued", progress: progress(), spend_usd: "0", history: [], ...extra }) as Optimization;

describe("the report's stream updates", () => {
  it("a progress event replaces progress and spend, and shows a queued optimization running once it left the queue", () => {
    const queued = withProgress(optimization(), progress({ spend_usd: "0.01" }));
    expect(queued).toMatchObject({ status: "queued", spend_usd: "0.01" });
    const running = withProgress(optimization(), progress({ phase: "baseline", cells_done: 4, spend_usd: "0.02" }));
    expect(running).toMatchObject({ status: "running", spend_usd: "0.02", progress: { cells_done: 4 } });
    // A status the stream cannot know better (cancelled meanwhile) is kept.
    expect(withProgress(optimization({ status: "cancelled" }), progress({ phase: "round" })).status).toBe("cancelled");
  });

  it("a round event replaces its round or adds it in order", () => {
    const two = withRound(withRound(optimization(), round(2, 0.8)), round(1, 0.5));
    expect(two.history.map((r) => r.round)).toEqual([1, 2]);
    expect(withRound(two, round(1, 0.6)).history.map((r) => r.best_score)).toEqual([0.6, 0.8]);
  });
});
