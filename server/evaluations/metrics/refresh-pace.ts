/**
 * A running run's global metrics read every one of its cells, so a refresh costs more as the run
 * grows: at a fixed second apart, a run of 9,000 cells spent a noticeable share of its worker's
 * time re-reading them. The next refresh therefore waits the least interval, or long enough that
 * refreshing takes at most this share of the time, whichever is longer. The run's end always
 * computes its final metrics, so only the live view of a large run updates less often.
 */
export const MAX_REFRESH_SHARE = 0.05;

/** When the next refresh of a run's metrics may start, given when this one started and ended (ms). */
export function nextRefreshAt(startedAt: number, endedAt: number, minIntervalMs: number): number {
  const took = Math.max(0, endedAt - startedAt);
  return Math.max(startedAt + minIntervalMs, endedAt + took * (1 / MAX_REFRESH_SHARE - 1));
}
