import { BadRequestError } from "@/server/core/errors";
import { rawQuery, type Executor } from "@/server/db";
import { filteringToSql, microsToIso, spanRowsSql, SqlParams } from "@/server/tracing";
import { isObject } from "../analytics-filter";
import { parseCompatQuery } from "./request";

const MINUTE_MS = 60_000;

export interface LegacyTotals {
  count: number;
  duration: number;
  costs: number;
  tokens: number;
}

export interface LegacyBucket {
  timestamp: string;
  interval: number;
  total: LegacyTotals;
  errors: LegacyTotals;
}

/**
 * `POST /api/tracing/spans/analytics`, the reference implementation's legacy route: per bucket of
 * ingestion time (`created_at`, aligned on `oldest`), the count, summed duration (ms), costs and
 * tokens of the spans in focus (`trace`: root spans, their `cumulative` totals; `span`: every span,
 * its `incremental` ones), and the same of those whose events hold an `exception`. Every bucket from
 * oldest to newest is answered, zero-filled, oldest first. The same flat keys and windowing as the
 * specs route (`specs` is not taken; `limit` and `rate` are checked, not applied, as there); bad
 * input is a 400, not the reference's empty 200. Sums are PostgreSQL numeric, as the reference's
 * (0.1 + 0.2 is 0.3), summed in the database: no span is sent to the process.
 */
export async function queryLegacyAnalytics(
  db: Executor,
  projectId: string,
  body: Record<string, unknown>,
  search: URLSearchParams,
  now: Date,
): Promise<{ count: number; buckets: LegacyBucket[] }> {
  if (body.specs !== undefined || search.has("specs"))
    throw new BadRequestError(
      "'specs' is not taken here; use POST /api/spans/analytics/query",
      "invalid_analytics_query",
    );
  const q = parseCompatQuery(body, search, now, "legacy");
  const operator = isObject(q.filtering) ? q.filtering.operator : undefined;
  if (typeof operator === "string" && ["or", "not", "nand", "nor"].includes(operator))
    throw new BadRequestError(
      `The reference implementation adds its exception test to the filter's top-level '${operator}', so its errors would not be the failed spans among those filtered: nest the conditions under {"operator": "and", "conditions": [<this filter>]}, which both answer alike.`,
      "invalid_analytics_query",
    );
  const scope = q.focus === "span" ? "incremental" : "cumulative";
  const params = new SqlParams();
  const project = params.add(projectId, "::uuid");
  const from = params.add(microsToIso(q.oldestUs), "::timestamptz");
  const to = params.add(microsToIso(q.newestUs), "::timestamptz");
  const stride = params.add(q.strideMinutes * 60, "::numeric");
  const where = [filteringToSql(q.filtering, params)];
  // A value that is not a JSON number is skipped (a cast would fail the whole query).
  const metric = (path: string) =>
    `case when jsonb_typeof(s.attributes #> '{ag,metrics,${path}}') = 'number' then (s.attributes #>> '{ag,metrics,${path}}')::numeric end`;
  const sums = (when: string) =>
    ["duration", "costs", "tokens"].map((m) => `coalesce(sum(${m}) ${when}, 0)::float8 as ${when ? "e_" : ""}${m}`);
  const rows = await rawQuery<LegacySums>(
    db,
    `select k, count(*)::int as count, ${sums("").join(", ")},
       (count(*) filter (where failed))::int as e_count, ${sums("filter (where failed)").join(", ")}
     from (${spanRowsSql(
       "s",
       `floor(extract(epoch from s.created_at - ${from}) / ${stride})::int as k,
        ${metric("duration,cumulative")} as duration, ${metric(`costs,${scope},total`)} as costs,
        ${metric(`tokens,${scope},total`)} as tokens,
        coalesce(s.events @> '[{"name": "exception"}]'::jsonb, false) as failed`,
       { project, from, to, time: "created_at", only: q.focus === "span" ? undefined : "roots", where },
     )}) r group by k`,
    params.values,
  );
  return bucketsOf(rows, Math.floor(q.oldestUs / 1000), Math.floor(q.newestUs / 1000), q.strideMinutes);
}

/** One bucket's sums, by its index from `oldest`; `e_` the failed spans'. */
export interface LegacySums {
  k: number;
  count: number;
  duration: number;
  costs: number;
  tokens: number;
  e_count: number;
  e_duration: number;
  e_costs: number;
  e_tokens: number;
}

/** Every bucket of the window, zero-filled, oldest first, with the sums of those that have spans. Pure. */
export function bucketsOf(
  rows: LegacySums[],
  oldestMs: number,
  newestMs: number,
  strideMinutes: number,
): { count: number; buckets: LegacyBucket[] } {
  const strideMs = strideMinutes * MINUTE_MS;
  const zero = (): LegacyTotals => ({ count: 0, duration: 0, costs: 0, tokens: 0 });
  const buckets: LegacyBucket[] = [];
  for (let at = oldestMs; at < newestMs; at += strideMs)
    buckets.push({ timestamp: new Date(at).toISOString(), interval: strideMinutes, total: zero(), errors: zero() });
  for (const r of rows) {
    const bucket = buckets[r.k];
    if (!bucket) continue;
    bucket.total = { count: r.count, duration: r.duration, costs: r.costs, tokens: r.tokens };
    bucket.errors = { count: r.e_count, duration: r.e_duration, costs: r.e_costs, tokens: r.e_tokens };
  }
  return { count: buckets.length, buckets };
}
