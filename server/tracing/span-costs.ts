import { costOf, TOKEN_KINDS, type PriceOverride, type TokenUsage } from "@/server/pricing";
import { getPath, isObject, setPath } from "./attributes";
import type { SpanRecord } from "./span-record";

/**
 * Whether a span reports tokens its producer did not cost: then it is costed at ingest. A span
 * that says how it was priced (`ag.meta.pricing`, as our own runs write) is kept as sent.
 */
export function needsCost(span: SpanRecord): boolean {
  const metrics = getPath(span.attributes, ["ag", "metrics"]);
  return (
    isObject(getPath(metrics, ["tokens", "incremental"])) &&
    getPath(metrics, ["costs", "incremental"]) === undefined &&
    getPath(span.attributes, ["ag", "meta", "pricing"]) === undefined
  );
}

/**
 * Costs a span's tokens (server/pricing) with the project's prices as they are now and the
 * catalog's price at the span's start, writing `ag.metrics.costs.incremental` (per usage kind
 * and `total`) and `ag.meta.pricing` (`{source, provider, model}`, or `{source: "none", reason}`
 * for a model without a price: never a cost of 0). The response's model is tried before the
 * requested one (it names the dated version that was billed).
 */
export function costSpan(span: SpanRecord, prices: readonly PriceOverride[]): void {
  const attributes = span.attributes;
  const usage = usageOf(getPath(attributes, ["ag", "metrics", "tokens", "incremental"]));
  const provider = str(getPath(attributes, ["ag", "meta", "system"]));
  const models = [
    ...new Set(
      [
        getPath(attributes, ["ag", "meta", "response", "model"]),
        getPath(attributes, ["ag", "meta", "request", "model"]),
      ]
        .map(str)
        .filter((m) => m !== undefined),
    ),
  ];
  if (models.length === 0) return;
  let reason = "the span reports only a total token count, not input and output";
  if (usage) {
    for (const model of models) {
      const cost = costOf(usage, { provider, model }, prices, new Date(span.start_time));
      if (cost.priced) {
        setPath(attributes, ["ag", "metrics", "costs", "incremental"], cost.amounts);
        setPath(attributes, ["ag", "meta", "pricing"], { source: cost.source, ...cost.priceOf });
        return;
      }
      reason = cost.reason;
    }
  }
  setPath(attributes, ["ag", "meta", "pricing"], { source: "none", reason });
}

function usageOf(tokens: unknown): TokenUsage | undefined {
  if (!isObject(tokens) || (typeof tokens.prompt !== "number" && typeof tokens.completion !== "number"))
    return undefined;
  const usage: TokenUsage = {};
  for (const kind of TOKEN_KINDS) if (typeof tokens[kind] === "number") usage[kind] = tokens[kind];
  return usage;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
