import type { AnalyticsQuery, BucketUnit } from "@/server/analytics";

export const RANGES = {
  "1h": { label: "1 hour", hours: 1, bucket: "minute" },
  "24h": { label: "24 hours", hours: 24, bucket: "hour" },
  "7d": { label: "7 days", hours: 24 * 7, bucket: "day" },
  "30d": { label: "30 days", hours: 24 * 30, bucket: "day" },
  "90d": { label: "90 days", hours: 24 * 90, bucket: "day" },
} as const satisfies Record<string, { label: string; hours: number; bucket: BucketUnit }>;
export type RangeKey = keyof typeof RANGES;
export const GROUPS = { agent: "Agent", model: "Model", revision: "Revision" } as const;
export type GroupKey = keyof typeof GROUPS;

/**
 * The query of a range: minute buckets ending at the next full minute for the last hour (the
 * API computes them from the spans), hourly ones ending at the next full hour for 24 hours, daily
 * ones ending at the next local midnight otherwise, in the browser's zone.
 */
export function rangeQuery(range: RangeKey, group: GroupKey, now: Date, agentId?: string): AnalyticsQuery {
  const { hours, bucket } = RANGES[range];
  const end = new Date(now);
  if (bucket === "minute") end.setSeconds(60, 0);
  else if (bucket === "hour") end.setMinutes(60, 0, 0);
  else end.setHours(24, 0, 0, 0);
  const oldest = new Date(end.getTime() - hours * 3_600_000);
  return {
    focus: "run",
    windowing: {
      oldest: oldest.toISOString(),
      newest: end.toISOString(),
      bucket,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    },
    group_by: group,
    ...(agentId ? { filtering: { conditions: [{ field: "agent", value: agentId }] } } : {}),
  };
}

/**
 * The query of a given window (an alert's link: `/analytics?oldest=&newest=`): minute buckets up
 * to six hours, hourly up to sixty days, daily beyond. Null when the window does not parse.
 */
export function windowQuery(
  window: { oldest: string; newest: string },
  group: GroupKey,
  agentId?: string,
): AnalyticsQuery | null {
  const oldest = Date.parse(window.oldest);
  const newest = Date.parse(window.newest);
  if (!(oldest < newest)) return null;
  const hours = (newest - oldest) / 3_600_000;
  const bucket: BucketUnit = hours <= 6 ? "minute" : hours <= 24 * 60 ? "hour" : "day";
  return {
    focus: "run",
    windowing: {
      oldest: new Date(oldest).toISOString(),
      newest: new Date(newest).toISOString(),
      bucket,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    },
    group_by: group,
    ...(agentId ? { filtering: { conditions: [{ field: "agent", value: agentId }] } } : {}),
  };
}
