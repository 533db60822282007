/**
 * The optimizer's randomness, all derived from the request's `seed`, so that an optimization
 * resumed by another worker makes the same choices as one that never stopped. Each choice takes
 * its own stream (`streamOf(seed, "split")`, `streamOf(seed, "parent", round, idx)`): what one
 * choice draws never shifts another.
 */

/** mulberry32: a 32-bit generator, plenty for splits, parent picks and bootstrap resamples. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for one named choice under `seed` (FNV-1a of the parts mixed into the seed). */
export function streamOf(seed: number, ...parts: (string | number)[]): () => number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of parts.join("/")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return mulberry32(h);
}

/** Fisher-Yates under `random`: a new array. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The train/holdout split of a testset's testcase ids: a seeded shuffle, the holdout taking
 * `round(n * fraction)` clamped so each side keeps at least one case. Each side stays in testset
 * order (the shuffle chooses, it does not reorder).
 */
export function splitTestcases(ids: readonly string[], fraction: number, seed: number) {
  const holdoutSize = Math.min(ids.length - 1, Math.max(1, Math.round(ids.length * fraction)));
  const holdout = new Set(shuffled(ids, streamOf(seed, "split")).slice(0, holdoutSize));
  return { train: ids.filter((id) => !holdout.has(id)), holdout: ids.filter((id) => holdout.has(id)) };
}

/**
 * A paired bootstrap of the mean difference (winner − base) over testcases: `resamples` draws of
 * the cases with replacement, the percentile interval at `confidence`. Seeded, so a report is
 * the same every time it is computed.
 */
export function bootstrapDifference(
  pairs: readonly { base: number; winner: number }[],
  seed: number,
  resamples = 2000,
  confidence = 0.95,
) {
  const diffs = pairs.map((p) => p.winner - p.base);
  const mean = diffs.length ? diffs.reduce((a, b) => a + b, 0) / diffs.length : 0;
  if (diffs.length === 0) return { mean: 0, ci_low: 0, ci_high: 0, confidence, method: "bootstrap", resamples };
  const random = streamOf(seed, "bootstrap");
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(random() * diffs.length)]!;
    means[r] = sum / diffs.length;
  }
  means.sort();
  const tail = (1 - confidence) / 2;
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))]!;
  return { mean, ci_low: at(tail), ci_high: at(1 - tail), confidence, method: "bootstrap", resamples };
}

export const median = (values: readonly number[]): number | undefined => {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
