/** What the `finish` part's messageMetadata carries (server/streams/ui-message-projection.ts). */
export interface TurnMetadata {
  sessionId?: string;
  traceId?: string;
  usage?: { input: number; output: number; total: number; cost?: number };
}

export function turnMetadata(metadata: unknown): TurnMetadata {
  return metadata !== null && typeof metadata === "object" ? (metadata as TurnMetadata) : {};
}

/** `1,234 in · 56 out · $0.0012`: tokens always, cost when the model's price is known. */
export function formatUsage(usage: NonNullable<TurnMetadata["usage"]>): string {
  const parts = [`${usage.input.toLocaleString("en-US")} in`, `${usage.output.toLocaleString("en-US")} out`];
  if (usage.cost !== undefined) parts.push(formatCost(usage.cost));
  return parts.join(" · ");
}

/** Small costs keep two significant digits, so a cheap turn does not read as $0.00. */
export function formatCost(cost: number): string {
  if (cost === 0) return "$0";
  if (cost >= 0.01) return `$${cost.toFixed(2)}`;
  return `$${cost.toPrecision(2)}`;
}
