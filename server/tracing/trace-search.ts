import { z } from "zod";
import type { QueryBody } from "./traces";

/** The playground's trace list filters; each becomes a condition of the query language. */
export const traceSearchSchema = z.strictObject({
  /** Full text over span attributes (inputs, outputs, names). */
  text: z.string().trim().max(200).optional(),
  status: z.enum(["error", "ok"]).optional(),
  /** How far back: the last hour, day, week or month; absent is any time. */
  since: z.enum(["1h", "24h", "7d", "30d"]).optional(),
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
  return {
    filtering: conditions.length ? { operator: "and", conditions } : undefined,
    windowing: {
      limit: search.limit,
      ...(search.since ? { oldest: new Date(now.getTime() - SINCE_MS[search.since]).toISOString() } : {}),
      ...(search.cursor ? { next: search.cursor } : {}),
    },
  };
}
