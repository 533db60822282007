import { firstParam, type SearchParams } from "@/components/search-params";

/** Every traces view has a URL (deep links); they are built here and nowhere else. */
export interface TraceFilters {
  text?: string;
  status?: "error" | "ok";
  since?: "1h" | "24h" | "7d" | "30d";
  /** An agent's slug. */
  agent?: string;
  /** A model id (an analytics chart's model series). */
  model?: string;
  /** A revision's id (an analytics chart's revision series). */
  revision?: string;
  /** USD; traces that cost at least this. */
  minCost?: number;
  /** ISO 8601: traces that started in [from, to) (a bucket of an analytics chart). */
  from?: string;
  to?: string;
}

export function tracesPath(filters: TraceFilters = {}): string {
  const params = new URLSearchParams();
  if (filters.text) params.set("q", filters.text);
  if (filters.status) params.set("status", filters.status);
  if (filters.since) params.set("since", filters.since);
  if (filters.agent) params.set("agent", filters.agent);
  if (filters.model) params.set("model", filters.model);
  if (filters.revision) params.set("revision", filters.revision);
  if (filters.minCost !== undefined) params.set("min_cost", String(filters.minCost));
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  const query = params.toString();
  return query ? `/traces?${query}` : "/traces";
}

export function tracePath(traceId: string, spanId?: string): string {
  return spanId ? `/traces/${traceId}?span=${spanId}` : `/traces/${traceId}`;
}

const STATUSES = ["error", "ok"] as const;
const SINCE = ["1h", "24h", "7d", "30d"] as const;

/** Filters from the URL; anything unknown is ignored rather than an error page. */
export function filtersOf(params: SearchParams): TraceFilters {
  const status = firstParam(params.status);
  const since = firstParam(params.since);
  const rawCost = firstParam(params.min_cost)?.trim();
  const minCost = rawCost ? Number(rawCost) : NaN;
  return {
    text: firstParam(params.q)?.trim() || undefined,
    status: STATUSES.find((s) => s === status),
    since: SINCE.find((s) => s === since),
    agent: firstParam(params.agent)?.trim() || undefined,
    model: firstParam(params.model)?.trim() || undefined,
    revision: firstParam(params.revision)?.trim() || undefined,
    minCost: Number.isFinite(minCost) && minCost >= 0 ? minCost : undefined,
    from: isoParam(firstParam(params.from)),
    to: isoParam(firstParam(params.to)),
  };
}

/** A time as the trace search takes it (UTC ISO 8601), or undefined for anything that is not one. */
function isoParam(value: string | undefined): string | undefined {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
