export { formatDuration } from "@/components/ui/format-duration";

/** Dollars with enough digits for a fraction of a cent. */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined || !Number.isFinite(usd)) return "—";
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(usd < 1 ? 3 : 2)}`;
}

export function formatScore(score: number | undefined): string {
  return score === undefined || !Number.isFinite(score) ? "—" : score.toFixed(2);
}

/** A signed delta, `+0.25` / `−0.10`, or nothing when there is no change to show. */
export function formatDelta(delta: number | undefined, digits = 2): string {
  if (delta === undefined || !Number.isFinite(delta) || Math.abs(delta) < 10 ** -digits / 2) return "±0";
  return `${delta > 0 ? "+" : "−"}${Math.abs(delta).toFixed(digits)}`;
}

export function formatPercent(share: number | undefined): string {
  return share === undefined || !Number.isFinite(share) ? "—" : `${Math.round(share * 100)}%`;
}
