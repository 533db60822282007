import { NO_PRICE } from "@/shared/no-price";

/** `400000` -> "400K", `1048576` -> "1M": how context windows are usually quoted. */
export function formatContextWindow(tokens: number): string {
  if (tokens >= 1_000_000) {
    const millions = tokens / 1_000_000;
    return `${Number.isInteger(Math.round(millions * 10) / 10) ? Math.round(millions) : (Math.round(millions * 10) / 10).toString()}M`;
  }
  return `${Math.round(tokens / 1000)}K`;
}

/** USD per million tokens: "$1.25", "$10", "$0.05". */
export function formatPrice(usdPerMillion: number | undefined): string {
  if (usdPerMillion === undefined) return NO_PRICE;
  return `$${Number(usdPerMillion.toFixed(2)).toString()}`;
}
