/**
 * A span's cost per usage kind, as tracing stores it (`ag.metrics.costs.cumulative`: the span and
 * everything under it) and as the pricing area names the kinds; or why it has none.
 */
export const COST_KIND_LABEL: Record<string, string> = {
  prompt: "Input",
  cache_read: "Cached input",
  cache_write: "Cache write (5 min)",
  cache_write_1h: "Cache write (1 h)",
  completion: "Output",
  reasoning: "Reasoning",
};

export type CostBreakdown =
  | { priced: true; total: number; kinds: Array<{ kind: string; label: string; usd: number }> }
  | { priced: false; reason?: string };

type Attributes = Record<string, unknown>;

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Attributes)[key] : undefined), value);

/**
 * The breakdown of some spans' cumulative costs (a trace's roots, or one span); no price when any
 * of `covered` (the spans those totals include) was not priced: a partial sum would read as the whole.
 */
export function costBreakdown(spans: Attributes[], covered: Attributes[] = spans): CostBreakdown | undefined {
  const noPrice = covered
    .map((attributes) => at(attributes, "ag", "meta", "pricing"))
    .find((pricing) => at(pricing, "source") === "none");
  if (noPrice) {
    const reason = at(noPrice, "reason");
    return { priced: false, reason: typeof reason === "string" ? reason : undefined };
  }
  const sums = new Map<string, number>();
  for (const attributes of spans) {
    const costs = at(attributes, "ag", "metrics", "costs", "cumulative");
    if (!costs || typeof costs !== "object") continue;
    for (const [kind, usd] of Object.entries(costs))
      if (typeof usd === "number") sums.set(kind, (sums.get(kind) ?? 0) + usd);
  }
  if (!sums.has("total")) return undefined;
  const kinds = [...sums]
    .filter(([kind, usd]) => kind !== "total" && usd > 0)
    .map(([kind, usd]) => ({ kind, label: COST_KIND_LABEL[kind] ?? kind, usd }));
  return { priced: true, total: sums.get("total")!, kinds };
}
