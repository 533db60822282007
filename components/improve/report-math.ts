import type { OptimizationResult, OptimizationStatus, Round } from "./types";

/** Still working: the page polls and shows progress. */
export const isActive = (status: OptimizationStatus) => status === "queued" || status === "running";

/** A score in 0..1 as a percentage with one decimal ("71.0%"), or a dash when absent. */
export function formatScore(score: number | undefined): string {
  return score === undefined || !Number.isFinite(score) ? "—" : `${(score * 100).toFixed(1)}%`;
}

/** A score difference in percentage points with its sign ("+22.0 pts"). */
export function formatPoints(delta: number | undefined): string {
  if (delta === undefined || !Number.isFinite(delta)) return "—";
  const points = delta * 100;
  return `${points > 0 ? "+" : points < 0 ? "−" : "±"}${Math.abs(points).toFixed(1)} pts`;
}

/** A wire amount (a decimal string or a number) as a number, undefined when it is not one. */
export function amount(value: number | string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Dollars with enough digits for a cost per case ("$0.0042"). */
export function formatUsd(value: number | string | undefined): string {
  const n = amount(value);
  if (n === undefined) return "—";
  if (n === 0) return "$0";
  return n >= 1 ? `$${n.toFixed(2)}` : `$${n.toPrecision(2)}`;
}

/** The winner's change against the base as a signed percentage ("−12%"); undefined without both. */
export function relativeChange(base: number | undefined, winner: number | undefined): number | undefined {
  if (base === undefined || winner === undefined || base === 0) return undefined;
  return (winner - base) / base;
}

export function formatChange(change: number | undefined): string {
  if (change === undefined) return "—";
  const pct = Math.round(change * 100);
  return `${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct)}%`;
}

/**
 * What the bootstrap interval says: the winner is better when the whole interval is above 0,
 * worse when it is below, and otherwise the difference may be noise.
 */
export function differenceVerdict(difference: OptimizationResult["difference"]): "better" | "worse" | "unsure" {
  if (!difference) return "unsure";
  if (difference.ci_low > 0) return "better";
  if (difference.ci_high < 0) return "worse";
  return "unsure";
}

/** Cells done as a share of all cells (0..1), for the progress bar. */
export function progressShare(progress: { cells_done?: number; cells_total?: number } | undefined): number {
  const total = progress?.cells_total ?? 0;
  const done = progress?.cells_done ?? 0;
  return total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
}

export interface RoundPoint {
  round: string;
  /** The best train score after the round. */
  best?: number;
  /** Each candidate's train score, by its position in the round (candidate 1, 2, ...). */
  [candidate: `c${number}`]: number | undefined;
}

/** The per-round chart's points: the best score so far and every candidate's score per round. */
export function roundPoints(history: Round[] | undefined): { points: RoundPoint[]; candidates: number } {
  const rounds = [...(history ?? [])].sort((a, b) => a.round - b.round);
  let candidates = 0;
  const points = rounds.map((r) => {
    const point: RoundPoint = { round: `Round ${r.round}`, best: r.best_score };
    r.candidates.forEach((c, i) => {
      point[`c${i + 1}`] = c.train_score;
    });
    candidates = Math.max(candidates, r.candidates.length);
    return point;
  });
  return { points, candidates };
}
