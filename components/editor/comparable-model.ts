/** The price fields of a catalog model (USD per million tokens). */
export interface PricedModel {
  id: string;
  /** Absent when the price catalog does not list the model. */
  input_usd_per_mtok?: number;
  output_usd_per_mtok?: number;
}

/** Input plus output price: one number to rank a provider's models into tiers (0 when unknown). */
const price = (m: PricedModel) => (m.input_usd_per_mtok ?? 0) + (m.output_usd_per_mtok ?? 0);

/**
 * The model to switch to when the provider changes: the one of `candidates` whose price is closest
 * (by ratio, so $1 vs $3 is as far as $10 vs $30) to the model in use, so a small model stays small
 * and a flagship stays a flagship. Ties go to the cheaper one. Without a known current model (a
 * custom id) the middle tier, never the most expensive by default.
 */
export function comparableModel(
  current: PricedModel | undefined,
  candidates: readonly PricedModel[],
): string | undefined {
  // Models without a list price cannot be placed in a tier; they are picked only when nothing else is.
  const priced = candidates.filter((c) => price(c) > 0);
  if (priced.length === 0) return candidates[0]?.id;
  const byPrice = [...priced].sort((a, b) => price(a) - price(b));
  if (!current || price(current) <= 0) return byPrice[Math.floor((byPrice.length - 1) / 2)].id;
  const target = Math.log(price(current));
  let best = byPrice[0];
  for (const candidate of byPrice) {
    if (Math.abs(Math.log(price(candidate)) - target) < Math.abs(Math.log(price(best)) - target) - 1e-9)
      best = candidate;
  }
  return best.id;
}
