import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsResult } from "@/server/analytics";
import { eraseUserRollups } from "@/server/tracing";
import { analytics, expectStatus, ingestSpans, runSpans, setupAnalytics, type AnalyticsCtx } from "./helpers";

let c: AnalyticsCtx;
const run = (user: string, start: string, total: number) =>
  runSpans({
    agent: "agent-e",
    model: "model-e",
    user,
    revision: `rev-${user}`,
    start,
    durationMs: 1000,
    tokens: { total },
    costs: { total: total / 1000 },
  });
const hours = { oldest: "2026-02-01T00:00:00.000Z", newest: "2026-02-02T00:00:00.000Z", bucket: "hour" };

beforeAll(async () => {
  c = await setupAnalytics();
  await ingestSpans(c, [
    ...run("gone", "2026-02-01T01:10:00.000Z", 100).spans,
    ...run("gone", "2026-02-01T03:40:00.000Z", 30).spans,
    ...run("kept", "2026-02-01T01:20:00.000Z", 7).spans,
  ]);
});
afterAll(() => c.t.close());

async function ok(body: unknown): Promise<AnalyticsResult> {
  const res = await analytics(c, body);
  expectStatus(res, 200);
  return res.body;
}

describe("eraseUserRollups", () => {
  it("takes a user's rows out, and what they counted out of the rows summed over users", async () => {
    const byModel = async () =>
      (await ok({ windowing: hours, group_by: "model" })).groups!.map((g) => [g.key, g.metrics.count]);
    const byUser = async () =>
      (await ok({ windowing: hours, group_by: "user" })).groups!.map((g) => [g.key, g.metrics.count]);
    expect(await byModel()).toEqual([["model-e", 3]]);
    expect(await byUser()).toEqual([
      ["gone", 2],
      ["kept", 1],
    ]);

    // Quarter, hour and day rows of two runs (two buckets each but the day): 5 `with` rows.
    const erased = await c.t.context.db.transaction((tx) => eraseUserRollups(tx, c.projectId, "gone"));
    expect(erased).toBe(5);

    expect(await byUser()).toEqual([["kept", 1]]);
    expect(await byModel()).toEqual([["model-e", 1]]);
    const totals = (await ok({ windowing: hours })).metrics;
    expect(totals.count).toBe(1);
    expect((await ok({ windowing: hours, group_by: "user" })).metrics).toEqual(totals);
  });

  it("takes what the user counted out of the narrow day rows, and the user's own goes", async () => {
    const days = { oldest: "2026-02-01T00:00:00.000Z", newest: "2026-02-02T00:00:00.000Z", bucket: "day" };
    const by = async (group_by?: string) => {
      const result = await ok({ windowing: days, ...(group_by ? { group_by } : {}) });
      return group_by
        ? result.groups!.map((g) => [g.key, g.metrics.count, g.metrics.tokens.total])
        : [result.metrics.count, result.metrics.tokens.total];
    };
    await ingestSpans(c, run("later", "2026-02-01T05:00:00.000Z", 11).spans);
    expect(await by("user")).toEqual([
      ["kept", 1, 7],
      ["later", 1, 11],
    ]);

    await c.t.context.db.transaction((tx) => eraseUserRollups(tx, c.projectId, "later"));

    expect(await by()).toEqual([1, 7]);
    expect(await by("user")).toEqual([["kept", 1, 7]]);
    expect(await by("revision")).toEqual([["rev-kept", 1, 7]]);
    expect(await by("model")).toEqual([["model-e", 1, 7]]);
    expect(await by("agent")).toEqual([["agent-e", 1, 7]]);
  });
});
