import { afterAll, beforeAll, expect, it } from "vitest";
import { queryAnalytics, queryWindowTotals } from "@/server/analytics";
import { monitorFixture, type MonitorFixture } from "./helpers";

const DAY = 86_400_000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;
const at = (dayOffset: number, hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return new Date(TODAY + dayOffset * DAY + h * 3_600_000 + m * 60_000).toISOString();
};

let f: MonitorFixture;
beforeAll(async () => {
  f = await monitorFixture();
});
afterAll(async () => {
  await f.t.close();
});

it("window totals over mixed grains agree with the analytics query of the same window", async () => {
  await f.runs("mixed", 3, 1, at(-2, "23:50"));
  await f.runs("mixed", 4, 0, at(-1, "01:10"));
  await f.runs("mixed", 2, 2, at(-1, "05:20"));
  await f.runs("mixed", 5, 1, at(-1, "23:55"));
  await f.runs("other", 7, 0, at(-1, "12:00"));
  const oldest = new Date(at(-2, "23:45"));
  const newest = new Date(at(0, "00:15"));
  const mixed = await f.agentId("mixed");
  const filtering = { field: "agent", operator: "is", value: mixed };
  const [totals, all] = await queryWindowTotals(f.t.context.db, [
    {
      projectId: f.projectId,
      focus: "run",
      filter: { field: "agent", value: mixed },
      oldest,
      newest,
      maps: ["latency", "costs", "tokens"],
    },
    { projectId: f.projectId, focus: "span", oldest, newest },
  ]);
  const expected = await queryAnalytics(
    f.t.context.db,
    f.projectId,
    {
      focus: "run",
      windowing: { oldest: oldest.toISOString(), newest: newest.toISOString(), bucket: "hour" },
      filtering,
    },
    { now: new Date() },
  );
  expect(expected.source).toBe("rollup");
  expect(totals.metrics.count).toBe(14);
  expect(totals.metrics.errors).toBe(4);
  expect(totals.metrics).toEqual(expected.metrics);
  // Every span of both agents (a run is a root and a chat span here).
  expect(all.metrics.count).toBe(2 * 21);
});
