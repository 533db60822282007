import { BadRequestError } from "@/server/core/errors";
import { rawQuery, type Executor } from "@/server/db";
import { filteringToSql, microsToIso, spanRowsSql, SqlParams } from "@/server/tracing";
import { hasReducer, summarise, type Blob, type MetricSpec } from "./metric-blob";
import { parseCompatQuery } from "./request";

/** Root spans one request may summarise: the summaries are computed from the values themselves. */
export const MAX_COMPAT_ROWS = 200_000;
const MINUTE_MS = 60_000;

export interface CompatAnalytics {
  count: number;
  buckets: { timestamp: string; interval: number; metrics: Record<string, Blob> }[];
  query: Record<string, unknown>;
  specs: MetricSpec[];
}

/**
 * `POST /api/spans/analytics/query` (and its deprecated twin `/api/tracing/analytics/query`):
 * the reference implementation's specs-driven summaries of root spans by ingestion time
 * (`created_at`), in buckets aligned on `oldest`, buckets without data left out. What the
 * reference implementation does, except that bad input is a 400, not an empty 200.
 */
export async function queryCompatAnalytics(
  db: Executor,
  projectId: string,
  body: Record<string, unknown>,
  search: URLSearchParams,
  now: Date,
): Promise<CompatAnalytics> {
  const q = parseCompatQuery(body, search, now);
  const echo = {
    formatting: compact({ focus: q.focus, format: q.format }),
    windowing: compact({
      oldest: microsToIso(q.oldestUs),
      newest: microsToIso(q.newestUs),
      interval: q.interval,
      rate: q.rate,
    }),
    ...(q.filtering !== undefined ? { filtering: q.filtering } : {}),
  };
  const paths = [...new Set(q.specs.filter((s) => hasReducer(s.type)).map((s) => stripPath(s.path)))];
  if (paths.length === 0) return { count: 0, buckets: [], query: echo, specs: q.specs };

  const params = new SqlParams();
  const project = params.add(projectId, "::uuid");
  const from = params.add(microsToIso(q.oldestUs), "::timestamptz");
  const to = params.add(microsToIso(q.newestUs), "::timestamptz");
  const where = [filteringToSql(q.filtering, params)];
  if (q.rate !== undefined) {
    where.push(
      `(('x' || substr(replace(s.trace_id::text, '-', ''), 1, 8))::bit(32)::bigint % 100) < ${Math.floor(q.rate * 100)}`,
    );
  }
  const columns = paths.map(
    (p, i) => `s.attributes #> ${params.add(`{${p.split(".").join(",")}}`, "::text[]")} as v${i}`,
  );
  const rows = await rawQuery<Record<string, unknown> & { created_at: Date | string }>(
    db,
    spanRowsSql("s", `s.created_at, ${columns.join(", ")}`, {
      project,
      from,
      to,
      time: "created_at",
      only: "roots",
      where,
      limit: MAX_COMPAT_ROWS + 1,
    }),
    params.values,
  );
  if (rows.length > MAX_COMPAT_ROWS) {
    throw new BadRequestError(
      `More than ${MAX_COMPAT_ROWS} runs match; narrow the window or the filter, or use POST /api/analytics/query.`,
      "too_many_rows",
    );
  }

  const strideMs = q.strideMinutes * MINUTE_MS;
  const oldestMs = Math.floor(q.oldestUs / 1000);
  const byBucket = new Map<number, unknown[][]>();
  for (const row of rows) {
    const k = Math.floor((new Date(row.created_at).getTime() - oldestMs) / strideMs);
    const cols = byBucket.get(k) ?? paths.map(() => []);
    byBucket.set(k, cols);
    paths.forEach((_, i) => cols[i].push(row[`v${i}`]));
  }
  const buckets = [...byBucket.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, cols]) => {
      const metrics: Record<string, Blob> = {};
      paths.forEach((p, i) => {
        const blob = summarise(
          q.specs.filter((s) => stripPath(s.path) === p),
          cols[i],
        );
        if (blob) metrics[`attributes.${p}`] = blob;
      });
      return { timestamp: new Date(oldestMs + k * strideMs).toISOString(), interval: q.strideMinutes, metrics };
    })
    .filter((b) => Object.keys(b.metrics).length > 0);
  return { count: buckets.length, buckets, query: echo, specs: q.specs };
}

const stripPath = (path: string) => path.replace(/^attributes\./, "");

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
