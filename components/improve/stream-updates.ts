import type { Optimization, OptimizationProgress, Round } from "./types";

/**
 * An optimization as the report holds it, after one `progress` event of its stream: the progress
 * and the spend replaced, and a queued optimization whose progress left the queue shown running
 * (the event carries no status; the `finished` event brings the last one).
 */
export function withProgress(o: Optimization, progress: OptimizationProgress): Optimization {
  const started = o.status === "queued" && progress.phase !== undefined && progress.phase !== "queued";
  return { ...o, progress, spend_usd: progress.spend_usd, ...(started ? { status: "running" as const } : {}) };
}

/** After one `round` event: the round replaces the one of its number, or is added in order. */
export function withRound(o: Optimization, round: Round): Optimization {
  const history = [...(o.history ?? []).filter((r) => r.round !== round.round), round];
  return { ...o, history: history.sort((a, b) => a.round - b.round) };
}
