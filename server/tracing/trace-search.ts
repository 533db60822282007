import { z } from "zod";
import type { QueryBody } from "./traces";

/** The playground's trace list filters; each becomes a condition of the query language. */
export const traceSearchSchema = z.strictObject({
  /** Full text over span attributes (inputs, outputs, names). */
  text: z.string().trim().max(200).optional(),
  status: z.enum(["error", "ok"]).optional(),
  /** How far back: the last hour, day, week or month; absent is any time. */
  since: z.enum(["1h", "24h", "7d", "30d"]).optional(),
  /** A time range of trace starts, [from, to) (an analytics chart's bucket); `from` wins over `since`. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** An agent by slug: runs whose `invoke_agent` span names it (`gen_ai.agent.name`). */
  agent: z.string().trim().min(1).max(200).optional(),
  /** A model id: traces with a span that asked for it (analytics' "model" group, `ag.meta.request.model`). */
  model: z.string().trim().min(1).max(300).optional(),
  /** A revision's id: traces of runs that ran it (analytics' "revision" group, the `workflow_revision` reference). */
  revision: z.string().trim().min(1).max(100).optional(),
  /** Traces that cost at least this much (USD): a trace's root carries its cumulative cost. */
  minCost: z.number().nonnegative().max(1_000_000).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

export type TraceSearch = z.output<typeof traceSearchSchema>;

const SINCE_MS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;

/** The `POST /api/traces/query` body that answers a search, newest first. */
export function traceSearchQuery(search: TraceSearch, now: Date): QueryBody {
  const conditions: Array<Record<string, unknown>> = [];
  if (search.text) conditions.push({ field: "content", operator: "contains", value: search.text });
  if (search.status === "error") conditions.push({ field: "status_code", value: "STATUS_CODE_ERROR" });
  if (search.status === "ok") conditions.push({ field: "status_code", operator: "is_not", value: "STATUS_CODE_ERROR" });
  if (search.agent) conditions.push({ field: "attributes", key: "gen_ai.agent.name", value: search.agent });
  if (search.model) conditions.push({ field: "attributes", key: "ag.meta.request.model", value: search.model });
  if (search.revision)
    conditions.push({
      field: "references",
      operator: "in",
      value: [{ id: search.revision, attributes: { key: "workflow_revision" } }],
    });
  // Cumulative costs only grow towards the root, so "some span has at least X" is "the trace has".
  if (search.minCost !== undefined)
    conditions.push({
      field: "attributes",
      key: "ag.metrics.costs.cumulative.total",
      operator: "gte",
      value: search.minCost,
    });
  return {
    filtering: conditions.length ? { operator: "and", conditions } : undefined,
    windowing: {
      limit: search.limit,
      ...(search.from
        ? { oldest: search.from }
        : search.since
          ? { oldest: new Date(now.getTime() - SINCE_MS[search.since]).toISOString() }
          : {}),
      ...(search.to ? { newest: search.to } : {}),
      ...(search.cursor ? { next: search.cursor } : {}),
    },
  };
}
