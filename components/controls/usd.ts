const USD = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** A budget's dollars as set: cents at least, and every digit a small limit has ($0.001, not $0.00). */
export function formatUsd(usd: number): string {
  return USD.format(usd);
}
