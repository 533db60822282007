import { rawQuery, replicaRead, type Executor } from "@/server/db";
import { SqlParams } from "@/server/tracing";
import { filterNeedsScan } from "./analytics-filter";
import {
  aggregateSql,
  factsSql,
  rollupDetails,
  scoreAggregateSql,
  scoreFactsSql,
  type FactSource,
} from "./fact-sources";
import { addFact, addInto, emptyAccumulator, toMetrics, type Accumulator, type AnalyticsMetrics } from "./metrics";
import { compactionMarks, grainKept } from "./rollup-compaction";
import { addRollupRows, rollupSumsSql, type RollupSumsRow } from "./rollup-merge";
import type { AnalyticsGroup, AnalyticsQuery, BucketUnit } from "./query-request";
import { bucketWindow, checkTimezone } from "./time-buckets";

const DAY_MS = 86_400_000;

export interface AnalyticsGroupMetrics {
  /** Omitted for the spans that have no value for the group. */
  key?: string;
  metrics: AnalyticsMetrics;
}

export interface AnalyticsResult {
  count: number;
  focus: "run" | "span";
  /** rollup: read from the roll-ups (tracing's span_rollups); scan: a group or filter the roll-ups do not keep, computed from the spans. */
  source: FactSource;
  windowing: { oldest: string; newest: string; bucket: BucketUnit; timezone: string };
  group_by?: AnalyticsGroup;
  metrics: AnalyticsMetrics;
  /** Totals per group over the window, the largest count first (then the most scored results). */
  groups?: AnalyticsGroupMetrics[];
  /** Every bucket of the window, oldest first, zeros where nothing happened; `groups` in the order above. */
  buckets: { timestamp: string; metrics: AnalyticsMetrics; groups?: AnalyticsGroupMetrics[] }[];
}

export interface AnalyticsQueryOptions {
  /** The time the window's default end is taken from (the app's clock). */
  now: Date;
  /** Scan even when the roll-ups could answer (the benchmark compares both; tests check they agree). */
  scan?: boolean;
}

interface Row {
  bucket: Date | string;
  key: string;
  kind: string;
  name: string;
  value: number | string;
}

/**
 * Metrics of a project's runs or spans over a window in buckets: the one query function the
 * routes, the playground and monitors call. Answered from the roll-ups unless the group or a
 * filter names something they do not keep (then from a scan of the window's spans, `source: scan`).
 */
export async function queryAnalytics(
  db: Executor,
  projectId: string,
  query: AnalyticsQuery,
  options: AnalyticsQueryOptions,
): Promise<AnalyticsResult> {
  // On a read replica that has replayed the caller's last write, else the primary (server/db/read-routing.ts).
  return replicaRead(db, (reader) => analyticsOn(reader, projectId, query, options));
}

async function analyticsOn(
  db: Executor,
  projectId: string,
  query: AnalyticsQuery,
  options: AnalyticsQueryOptions,
): Promise<AnalyticsResult> {
  const w = query.windowing ?? {};
  const unit = w.bucket ?? "hour";
  const timezone = checkTimezone(w.timezone ?? "UTC");
  const newest = w.newest ? new Date(w.newest) : options.now;
  const oldest = w.oldest ? new Date(w.oldest) : new Date(newest.getTime() - DAY_MS);
  // Statements that do not wait on each other are sent together (on a pool, in parallel; in a
  // transaction, one after the other): each round trip is part of the answer's time.
  const [window, marks] = await Promise.all([
    bucketWindow(db, oldest, newest, unit, timezone),
    compactionMarks(db, projectId),
  ]);
  const focus = query.focus ?? "run";
  const group = query.group_by;
  // The roll-ups keep dimensions, and fine grains until compaction takes them (rollup-compaction.ts,
  // read only when the rest allows); anything else is computed from the window's spans.
  const rollupCan =
    (group === undefined || typeof group === "string") &&
    !filterNeedsScan(query.filtering) &&
    !!window.grain &&
    grainKept(window.grain, rollupDetails(group, query.filtering, window.grain), window.starts[0], marks);
  const source: FactSource = rollupCan && !options.scan ? "rollup" : "scan";

  const factQuery = { projectId, focus, window, group, filtering: query.filtering };
  const params = new SqlParams();
  const facts = factsSql(source, factQuery, params);
  // bucket start (ms) -> group key -> sums
  const cells = new Map<number, Map<string, Accumulator>>();
  // Roll-up rows are few (270 for 90 days by day and model) and are added up here (rollup-merge.ts); a
  // scan's spans are many, and are summed by the database.
  const scoreParams = new SqlParams();
  const [factRows, scoreRows] = await Promise.all([
    rawQuery<RollupSumsRow | Row>(db, source === "rollup" ? rollupSumsSql(facts) : aggregateSql(facts), params.values),
    rawQuery<Row>(db, scoreAggregateSql(scoreFactsSql(source, factQuery, scoreParams)), scoreParams.values),
  ]);
  let rows: Row[] = [];
  if (source === "rollup") addRollupRows(cells, factRows as RollupSumsRow[]);
  else rows = factRows as Row[];
  rows = [...rows, ...scoreRows];

  for (const row of rows) {
    const at = new Date(row.bucket).getTime();
    const byKey = cells.get(at) ?? new Map<string, Accumulator>();
    cells.set(at, byKey);
    const acc = byKey.get(row.key) ?? emptyAccumulator();
    byKey.set(row.key, acc);
    addFact(acc, row.kind, row.name, Number(row.value));
  }

  // Added up in one order, buckets by time and keys by code unit, whichever order the rows came
  // in: sums of doubles depend on it in their last bits, which a cost rounded to 12 decimals
  // can show (the roll-up's and the scan's rows arrive in different orders).
  const ordered = [...cells.keys()]
    .sort((a, b) => a - b)
    .map((at) => {
      const byKey = cells.get(at)!;
      return [at, [...byKey.keys()].sort().map((key) => [key, byKey.get(key)!] as const)] as const;
    });
  const total = emptyAccumulator();
  const perGroup = new Map<string, Accumulator>();
  const bucketTotals = new Map<number, Accumulator>();
  for (const [at, byKey] of ordered) {
    const bucketTotal = emptyAccumulator();
    for (const [key, acc] of byKey) {
      addInto(bucketTotal, acc);
      addInto(perGroup.get(key) ?? perGroup.set(key, emptyAccumulator()).get(key)!, acc);
    }
    addInto(total, bucketTotal);
    bucketTotals.set(at, bucketTotal);
  }
  const keys = [...perGroup.entries()]
    .filter(([, acc]) => acc.spans > 0 || acc.results > 0)
    .sort((a, b) => b[1].spans - a[1].spans || b[1].results - a[1].results || a[0].localeCompare(b[0]))
    .map(([key]) => key);
  const keyed = (key: string, acc: Accumulator): AnalyticsGroupMetrics => ({
    ...(key !== "" ? { key } : {}),
    metrics: toMetrics(acc),
  });

  return {
    count: window.starts.length,
    focus,
    source,
    windowing: {
      oldest: window.starts[0].toISOString(),
      newest: window.end.toISOString(),
      bucket: unit,
      timezone,
    },
    ...(group !== undefined ? { group_by: group } : {}),
    metrics: toMetrics(total),
    ...(group !== undefined ? { groups: keys.map((k) => keyed(k, perGroup.get(k)!)) } : {}),
    buckets: window.starts.map((start) => {
      const byKey = cells.get(start.getTime()) ?? new Map<string, Accumulator>();
      return {
        timestamp: start.toISOString(),
        metrics: toMetrics(bucketTotals.get(start.getTime()) ?? emptyAccumulator()),
        ...(group !== undefined ? { groups: keys.map((k) => keyed(k, byKey.get(k) ?? emptyAccumulator())) } : {}),
      };
    }),
  };
}
