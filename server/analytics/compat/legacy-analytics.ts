import { BadRequestError } from "@/server/core/errors";
import { rawQuery, type Executor } from "@/server/db";
import { filteringToSql, microsToIso, spanRowsSql, SqlParams } from "@/server/tracing";
import { MAX_COMPAT_ROWS } from "./query";
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
 * specs route (`specs` is not taken); bad input is a 400, not the reference's empty 200.
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
  const q = parseCompatQuery(body, search, now);
  const scope = q.focus === "span" ? "incremental" : "cumulative";
  const params = new SqlParams();
  const project = params.add(projectId, "::uuid");
  const from = params.add(microsToIso(q.oldestUs), "::timestamptz");
  const to = params.add(microsToIso(q.newestUs), "::timestamptz");
  const where = [filteringToSql(q.filtering, params)];
  const metric = (path: string) => `(s.attributes #>> '{ag,metrics,${path}}')::float8`;
  const rows = await rawQuery<{
    created_at: Date | string;
    duration: number | null;
    costs: number | null;
    tokens: number | null;
    failed: boolean;
  }>(
    db,
    spanRowsSql(
      "s",
      `s.created_at, ${metric("duration,cumulative")} as duration, ${metric(`costs,${scope},total`)} as costs,
       ${metric(`tokens,${scope},total`)} as tokens,
       coalesce(s.events @> '[{"name": "exception"}]'::jsonb, false) as failed`,
      {
        project,
        from,
        to,
        time: "created_at",
        only: q.focus === "span" ? undefined : "roots",
        where,
        limit: MAX_COMPAT_ROWS + 1,
      },
    ),
    params.values,
  );
  if (rows.length > MAX_COMPAT_ROWS)
    throw new BadRequestError(
      `More than ${MAX_COMPAT_ROWS} spans match; narrow the window or the filter, or use POST /api/analytics/query.`,
      "too_many_rows",
    );
  return bucketsOf(rows, Math.floor(q.oldestUs / 1000), Math.floor(q.newestUs / 1000), q.strideMinutes);
}

/** Sums rows into every bucket of the window, zero-filled, oldest first. Pure. */
export function bucketsOf(
  rows: {
    created_at: Date | string;
    duration: number | null;
    costs: number | null;
    tokens: number | null;
    failed: boolean;
  }[],
  oldestMs: number,
  newestMs: number,
  strideMinutes: number,
): { count: number; buckets: LegacyBucket[] } {
  const strideMs = strideMinutes * MINUTE_MS;
  const zero = (): LegacyTotals => ({ count: 0, duration: 0, costs: 0, tokens: 0 });
  const buckets: LegacyBucket[] = [];
  for (let at = oldestMs; at < newestMs; at += strideMs)
    buckets.push({ timestamp: new Date(at).toISOString(), interval: strideMinutes, total: zero(), errors: zero() });
  const add = (into: LegacyTotals, row: (typeof rows)[number]) => {
    into.count += 1;
    into.duration += row.duration ?? 0;
    into.costs += row.costs ?? 0;
    into.tokens += row.tokens ?? 0;
  };
  for (const row of rows) {
    const bucket = buckets[Math.floor((new Date(row.created_at).getTime() - oldestMs) / strideMs)];
    if (!bucket) continue;
    add(bucket.total, row);
    if (row.failed) add(bucket.errors, row);
  }
  return { count: buckets.length, buckets };
}
