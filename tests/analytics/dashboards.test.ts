import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, setupAnalytics, type AnalyticsCtx } from "./helpers";

let c: AnalyticsCtx;
beforeAll(async () => {
  c = await setupAnalytics();
});
afterAll(() => c.t.close());

const dashboard = {
  name: "Support health",
  charts: [
    { title: "Cost by model", metric: "cost", range: "30d", group_by: "model" },
    {
      title: "Errors of the support agent",
      metric: "error_rate",
      range: "24h",
      filtering: { conditions: [{ field: "agent", value: "support" }] },
    },
  ],
};

describe("saved dashboards (/api/analytics/dashboards/)", () => {
  it("saves, lists, fetches, replaces and deletes a dashboard of the project", async () => {
    const created = await c.t.call("POST", "/api/analytics/dashboards/", { key: c.key, body: { dashboard } });
    expectStatus(created, 200);
    const id = created.body.dashboard.id;
    expect(created.body.dashboard).toMatchObject({
      name: "Support health",
      charts: dashboard.charts,
      created_by: c.userId,
    });

    const list = await c.t.call("GET", "/api/analytics/dashboards/", { key: c.key });
    expect(list.body.dashboards.map((d: { id: string }) => d.id)).toEqual([id]);

    const replaced = await c.t.call("PUT", `/api/analytics/dashboards/${id}`, {
      key: c.key,
      body: { dashboard: { name: "Renamed", charts: [dashboard.charts[0]] } },
    });
    expectStatus(replaced, 200);
    const fetched = await c.t.call("GET", `/api/analytics/dashboards/${id}`, { key: c.key });
    expect(fetched.body.dashboard).toMatchObject({ name: "Renamed", charts: [dashboard.charts[0]] });

    expectStatus(await c.t.call("DELETE", `/api/analytics/dashboards/${id}`, { key: c.key }), 204);
    const gone = await c.t.call("GET", `/api/analytics/dashboards/${id}`, { key: c.key });
    expectStatus(gone, 404);
    expect(gone.body.code).toBe("dashboard_not_found");
  });

  it("a chart's range defaults to 7 days", async () => {
    const res = await c.t.call("POST", "/api/analytics/dashboards/", {
      key: c.key,
      body: { dashboard: { name: "Default", charts: [{ title: "Runs", metric: "runs" }] } },
    });
    expect(res.body.dashboard.charts[0].range).toBe("7d");
  });

  it("refuses a chart the analytics API would refuse, naming it, and stores nothing", async () => {
    const before = (await c.t.call("GET", "/api/analytics/dashboards/", { key: c.key })).body.count;
    const bad = await c.t.call("POST", "/api/analytics/dashboards/", {
      key: c.key,
      body: {
        dashboard: {
          name: "Bad",
          charts: [
            {
              title: "Broken filter",
              metric: "runs",
              filtering: { conditions: [{ field: "agent", operator: "nope" }] },
            },
          ],
        },
      },
    });
    expectStatus(bad, 400);
    expect(bad.body.detail).toContain('charts[0] ("Broken filter")');
    const unknownMetric = await c.t.call("POST", "/api/analytics/dashboards/", {
      key: c.key,
      body: { dashboard: { name: "Bad", charts: [{ title: "x", metric: "happiness" }] } },
    });
    expectStatus(unknownMetric, 422);
    expect((await c.t.call("GET", "/api/analytics/dashboards/", { key: c.key })).body.count).toBe(before);
  });

  it("another project sees none of them", async () => {
    const created = await c.t.call("POST", "/api/analytics/dashboards/", { key: c.key, body: { dashboard } });
    const other = await c.t.newProject("other");
    expect((await c.t.call("GET", "/api/analytics/dashboards/", { key: other.key })).body.count).toBe(0);
    const id = created.body.dashboard.id;
    expectStatus(await c.t.call("GET", `/api/analytics/dashboards/${id}`, { key: other.key }), 404);
    expectStatus(await c.t.call("DELETE", `/api/analytics/dashboards/${id}`, { key: other.key }), 404);
  });
});
