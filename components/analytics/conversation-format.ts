/** USD with enough digits for a single turn's cost. */
export function formatUsd(value: number): string {
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 4)}`;
}

/** A mean score or pass rate, or "—" where nothing was scored. */
export function formatScores(scores: {
  count: number;
  mean?: number;
  verdict_count: number;
  pass_rate?: number;
}): string {
  const parts = [
    ...(scores.mean !== undefined ? [scores.mean.toFixed(2)] : []),
    ...(scores.pass_rate !== undefined ? [`${Math.round(scores.pass_rate * 100)}% pass`] : []),
  ];
  return parts.length ? parts.join(" · ") : "—";
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** The window of a list's range: the server's default (the last 7 days) sends none. */
export const LIST_RANGES = { "24h": 24, "7d": 24 * 7, "30d": 24 * 30 } as const;
export type ListRange = keyof typeof LIST_RANGES;
export function listWindow(range: ListRange, now: Date): { oldest?: string } {
  return range === "7d" ? {} : { oldest: new Date(now.getTime() - LIST_RANGES[range] * 3_600_000).toISOString() };
}
