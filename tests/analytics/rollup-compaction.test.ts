import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COMPACTION_GRACE_MS,
  compactRollupsPass,
  drainRollupCompaction,
  queryAnalytics,
  queryWindowTotals,
  type AnalyticsQuery,
} from "@/server/analytics";
import { ingestSpans, runSpans, setupAnalytics, type AnalyticsCtx } from "./helpers";

const DAY_MS = 86_400_000;
let c: AnalyticsCtx;
// The app's clock is the real one here; windows end at the test's start.
const now = new Date();
const ago = (days: number, minutes = 0) => new Date(now.getTime() - days * DAY_MS + minutes * 60_000).toISOString();

// One run (a root naming a user and a revision, a chat child; both carry the ingest key, so
// both are counted in a `with` row and a `summed` row) at each age the policy treats apart:
// past every fine horizon (100 days), past the `with` rows' (40 days), within all (3 days, now).
const RUNS = [
  { days: 100, user: "u-old", model: "m-a", tokens: 10 },
  { days: 40, user: "u-mid", model: "m-b", tokens: 20 },
  { days: 3, user: "u-new", model: "m-a", tokens: 40 },
  { days: 0, user: "u-new", model: "m-b", tokens: 80 },
];

const q = (days: number, bucket: "hour" | "day", extra: Partial<AnalyticsQuery> = {}): AnalyticsQuery => ({
  windowing: { oldest: ago(days), newest: now.toISOString(), bucket, ...extra.windowing },
  ...extra,
});

/** Every case the policy decides differently: day rows, quarter rows of a half-hour zone, hour and quarter `with` rows. */
const QUERIES: [string, AnalyticsQuery][] = [
  ["120 days by day, by model", q(120, "day", { group_by: "model" })],
  ["120 days by day, by user", q(120, "day", { group_by: "user" })],
  [
    "60 days by day in Asia/Kolkata, by agent",
    {
      windowing: { oldest: ago(60), newest: now.toISOString(), bucket: "day", timezone: "Asia/Kolkata" },
      group_by: "agent",
    },
  ],
  ["60 days by hour, by model", q(60, "hour", { group_by: "model" })],
  ["45 days by hour, by user", q(45, "hour", { group_by: "user" })],
  ["7 days by hour, by user", q(7, "hour", { group_by: "user", focus: "span" })],
  [
    "7 days by day in Asia/Kolkata, by user",
    {
      windowing: { oldest: ago(7), newest: now.toISOString(), bucket: "day", timezone: "Asia/Kolkata" },
      group_by: "user",
    },
  ],
];

const answers = async () =>
  Promise.all(
    QUERIES.map(([, query]) => queryAnalytics(c.t.context.db, c.projectId, query, { now: c.t.context.now() })),
  );

/** A monitor's windows (at most 7 days, read at quarter hours at their edges), one filtered by user. */
const monitorTotals = async () =>
  (
    await queryWindowTotals(c.t.context.db, [
      { projectId: c.projectId, focus: "run", oldest: new Date(ago(7, 7)), newest: now, maps: ["tokens"] },
      {
        projectId: c.projectId,
        focus: "span",
        filter: { field: "user", value: "u-new" },
        oldest: new Date(ago(7, 7)),
        newest: now,
        maps: ["latency"],
      },
    ])
  ).map((t) => t.metrics);

beforeAll(async () => {
  c = await setupAnalytics();
  await ingestSpans(
    c,
    RUNS.flatMap(
      (r) =>
        runSpans({
          agent: "agent-c",
          model: r.model,
          user: r.user,
          revision: `rev-${r.user}`,
          start: ago(r.days, -5),
          durationMs: 1200,
          tokens: { total: r.tokens },
          costs: { total: r.tokens / 1000 },
        }).spans,
    ),
  );
});
afterAll(() => c.t.close());

describe("roll-up compaction", () => {
  it("deletes the fine rows past their horizon, in bounded batches, and leaves every answer the same", async () => {
    const before = await answers();
    const monitorsBefore = await monitorTotals();
    // The fixture is what the cases say it is: every run counted, old ones by day.
    expect(before[0].source).toBe("rollup");
    expect(before[0].metrics.count).toBe(4);
    expect(before[0].metrics.tokens).toEqual({ total: 150 });
    expect(before.every((a) => a.source === "rollup")).toBe(true);

    // The first pass sets one mark per rule and deletes nothing: a query that read no mark may still be reading.
    expect(await compactRollupsPass(c.t.context, { batch: 1 })).toBe(3);
    expect(await compactRollupsPass(c.t.context, { batch: 1 })).toBe(0);
    c.t.advanceClock(COMPACTION_GRACE_MS);
    // Per run: a root and a chat span, each in a `with` and a `summed` row at each grain. The
    // 100-day run loses its quarter rows of both details and its hour `with` rows (2 + 2 + 2),
    // the 40-day run its quarter and hour `with` rows (2 + 2); the 3-day run and today's keep all.
    expect(await compactRollupsPass(c.t.context, { batch: 1 })).toBe(3); // a batch per rule
    expect(await drainRollupCompaction(c.t.context, 100, { batch: 1 })).toBe(10 - 3);
    expect(await drainRollupCompaction(c.t.context, 100)).toBe(0);

    const after = await answers();
    expect(after.map((a) => ({ ...a, source: "rollup" }))).toEqual(before);
    expect(await monitorTotals()).toEqual(monitorsBefore);
  });

  it("answers from the roll-ups what they keep, and from a scan what compaction took (the same figures)", async () => {
    const result = await answers();
    const sources = Object.fromEntries(QUERIES.map(([name], i) => [name, result[i].source]));
    expect(sources).toEqual({
      "120 days by day, by model": "rollup",
      "120 days by day, by user": "rollup",
      "60 days by day in Asia/Kolkata, by agent": "rollup",
      "60 days by hour, by model": "rollup",
      "45 days by hour, by user": "scan",
      "7 days by hour, by user": "rollup",
      "7 days by day in Asia/Kolkata, by user": "rollup",
    });
    const scans = await Promise.all(
      QUERIES.map(([, query]) =>
        queryAnalytics(c.t.context.db, c.projectId, query, { now: c.t.context.now(), scan: true }),
      ),
    );
    expect(result.map((r) => ({ ...r, source: "scan" }))).toEqual(scans);
    expect(result[4].groups!.map((g) => [g.key, g.metrics.count])).toEqual([
      ["u-new", 2],
      ["u-mid", 1],
    ]);
  });

  it("keeps a quarter-hour zone's 90 days on the roll-ups, and scans past what the policy keeps", async () => {
    const kolkata = (days: number) =>
      queryAnalytics(
        c.t.context.db,
        c.projectId,
        { windowing: { oldest: ago(days), newest: now.toISOString(), bucket: "day", timezone: "Asia/Kolkata" } },
        { now: c.t.context.now() },
      );
    expect((await kolkata(90)).source).toBe("rollup");
    const old = await kolkata(120);
    expect(old.source).toBe("scan");
    expect(old.metrics.count).toBe(4);
  });
});
