/**
 * Metrics are stored under the service's attribute paths (`attributes.svc.data.outputs.score`,
 * `attributes.svc.metrics.duration.cumulative`); the reference implementation's clients read the
 * same values under `attributes.ag.*`. Every answer carries both spellings of each such key, so
 * both kinds of client read what they expect; a key already present under both is left as it is.
 */
const PREFIXES = ["attributes.svc.", "attributes.ag."] as const;

/** `data` of a metrics row, keyed by step then by metric: each step's metrics with both spellings. */
export function withMetricKeyAliases(data: Record<string, unknown> | null | undefined) {
  if (!data) return data;
  const out: Record<string, unknown> = {};
  for (const [step, metrics] of Object.entries(data)) out[step] = isPlainObject(metrics) ? aliased(metrics) : metrics;
  return out;
}

function aliased(metrics: Record<string, unknown>): Record<string, unknown> {
  const out = { ...metrics };
  for (const [key, value] of Object.entries(metrics)) {
    const index = PREFIXES.findIndex((prefix) => key.startsWith(prefix));
    if (index < 0) continue;
    const twin = PREFIXES[1 - index] + key.slice(PREFIXES[index].length);
    if (!(twin in out)) out[twin] = value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
