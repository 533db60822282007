import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { savedChartQuery, type SavedChart } from "../components/analytics/dashboard-chart-query";
import { mutate, query } from "./trpc";
import { hydrated } from "./hydrated";

test.describe.configure({ timeout: 180_000 });

const stamp = Date.now().toString(36);
const user = `e2e-user-${stamp}`;
const sessions = [`e2e-session-a-${stamp}`, `e2e-session-b-${stamp}`];
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("");

/** A run as a client sends it: an invoke_agent root carrying session and user, a chat child with usage and cost. */
function run(session: string, minutesAgo: number, cost: number, error = false) {
  const trace = hex(32);
  const root = hex(16);
  const start = new Date(Date.now() - minutesAgo * 60_000);
  const end = new Date(start.getTime() + 1200).toISOString();
  const status = error ? "STATUS_CODE_ERROR" : "STATUS_CODE_OK";
  return [
    {
      trace_id: trace,
      span_id: root,
      span_name: `invoke_agent e2e-views-${stamp}`,
      start_time: start.toISOString(),
      end_time: end,
      status_code: status,
      session_id: session,
      user_id: user,
      attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.request.model": "e2e-model" },
    },
    {
      trace_id: trace,
      span_id: hex(16),
      parent_id: root,
      span_name: "chat e2e-model",
      start_time: start.toISOString(),
      end_time: end,
      status_code: status,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "e2e-model",
        "ag.metrics.tokens.incremental.prompt": 100,
        "ag.metrics.tokens.incremental.completion": 20,
        "ag.metrics.costs.incremental.total": cost,
      },
    },
  ];
}

let key: { id: string; key: string };
const auth = () => ({ authorization: `ApiKey ${key.key}` });

async function apiSessions(request: APIRequestContext) {
  const res = await request.post("/api/analytics/sessions", { headers: auth(), data: { user } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as {
    count: number;
    sessions: { session_id: string; runs: number; errors: number; cost: number; tokens: number }[];
  };
}

test.beforeAll(async ({ request }) => {
  key = await mutate(request, "apiKeys.create", { name: `e2e analytics views ${stamp}` });
  const spans = [...run(sessions[0], 30, 0.0125), ...run(sessions[0], 20, 0.0075, true), ...run(sessions[1], 10, 0.5)];
  const res = await request.post("/api/tracing/spans/ingest", { headers: auth(), data: { spans } });
  expect(res.status(), await res.text()).toBe(202);
  // The ingest worker stores them moments later.
  await expect.poll(async () => (await apiSessions(request)).count, { timeout: 60_000 }).toBe(2);
});

test.afterAll(async ({ request }) => {
  await mutate(request, "apiKeys.revoke", { id: key.id });
});

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

for (const width of [1280, 390]) {
  test(`sessions and users views show the API's numbers; a session lists its turns, each opening its trace (${width} px)`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const api = await apiSessions(request);
    const a = api.sessions.find((s) => s.session_id === sessions[0])!;
    expect(a).toMatchObject({ runs: 2, errors: 1, tokens: 240 });
    expect(a.cost).toBeCloseTo(0.02, 10);

    await page.goto(`/analytics/sessions?user=${user}`);
    await expect(page.getByRole("heading", { name: `Sessions of ${user}` })).toBeVisible();
    const rows = page.getByTestId("session-row");
    await expect(rows).toHaveCount(2);
    // Most recently active first, as the API answers.
    await expect(rows.first()).toContainText(sessions[1]);
    const row = rows.filter({ hasText: sessions[0] });
    await expect(row.getByTestId("session-turns")).toHaveText(String(a.runs));
    await expect(row.getByTestId("session-cost")).toHaveText(`$${a.cost.toFixed(4)}`);
    await noSidewaysScroll(page);

    await row.getByRole("link", { name: sessions[0] }).click();
    await expect(page.getByTestId("turn-row")).toHaveCount(2);
    await expect(page.getByTestId("session-summary")).toHaveText("2 turns · 1 errors · $0.0200");
    const turns = await (await request.get(`/api/analytics/sessions/${sessions[0]}`, { headers: auth() })).json();
    await page.getByTestId("turn-row").first().getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/traces/${turns.turns[0].trace_id}`));

    const users = await (await request.post("/api/analytics/users", { headers: auth(), data: {} })).json();
    const mine = users.users.find((u: { user_id: string }) => u.user_id === user);
    expect(mine).toMatchObject({ sessions: 2, runs: 3 });
    await page.goto("/analytics/users");
    const userRow = page.getByTestId("user-row").filter({ hasText: user });
    await expect(userRow.getByTestId("user-runs")).toHaveText("3");
    await expect(userRow.getByTestId("user-cost")).toHaveText(`$${mine.cost.toFixed(4)}`);
    await noSidewaysScroll(page);
    await userRow.getByRole("link", { name: user }).click();
    await expect(page).toHaveURL(new RegExp(`/analytics/sessions\\?user=${user}`));
  });
}

test("dashboards: a dashboard saved on the page is stored by the API, drawn with the API's numbers, and a point opens its traces", async ({
  page,
  request,
}) => {
  const name = `Views ${stamp}`;
  await page.goto("/analytics/dashboards");
  await page.getByRole("button", { name: "New dashboard" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Chart title").fill("Runs today");
  await page.getByLabel("Metric").selectOption("runs");
  await page.getByLabel("Chart range").selectOption("24h");
  await page.getByLabel("Chart group").selectOption("model");
  await page.getByRole("button", { name: "Add chart" }).click();
  await page.getByRole("button", { name: "Save dashboard" }).click();
  // Saved once the page shows it: the API is read after that, not while the save is on its way.
  const card = page.getByRole("region", { name });
  await expect(card).toBeVisible();

  const stored = await (await request.get("/api/analytics/dashboards/", { headers: auth() })).json();
  const dashboard = stored.dashboards.find((d: { name: string }) => d.name === name);
  expect(dashboard.charts).toEqual([{ title: "Runs today", metric: "runs", range: "24h", group_by: "model" }]);

  const chart = card.getByTestId("saved-chart");
  await expect(chart).toContainText("Runs today");
  const expected = await query<{ metrics: { count: number } }>(
    request,
    "analytics.query",
    savedChartQuery(dashboard.charts[0] as SavedChart, new Date()),
  );
  await expect(chart.getByTestId("saved-chart-runs")).toHaveText(`${expected.metrics.count} runs`);
  // Grouped by model: a legend names the series, e2e-model among them.
  await expect(chart.locator(".recharts-legend-wrapper")).toContainText("e2e-model");

  await chart.locator(".recharts-wrapper").click();
  await expect(page).toHaveURL(/\/traces\?.*from=.*&to=/);
  const url = new URL(page.url());
  const [from, to] = ["from", "to"].map((p) => Date.parse(url.searchParams.get(p)!));
  expect(to - from).toBe(3_600_000);

  await page.goto("/analytics/dashboards");
  await page.getByRole("button", { name: `Delete dashboard ${name}` }).click();
  await expect(page.getByRole("region", { name })).toHaveCount(0);
  const after = await (await request.get("/api/analytics/dashboards/", { headers: auth() })).json();
  expect(after.dashboards.some((d: { name: string }) => d.name === name)).toBe(false);
});

test("analytics charts: a legend names the groups and the cost axis shows short dollar amounts (1280 and 390 px)", async ({
  page,
}) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/analytics");
    await hydrated(page.getByLabel("Group by"));
    await page.getByLabel("Group by").selectOption("model");
    // The chart's card: the innermost section under its title.
    const cost = page
      .locator("section", { has: page.getByRole("heading", { name: "Cost (USD)", exact: true }) })
      .last();
    await expect(cost.locator(".recharts-legend-wrapper")).toContainText("e2e-model");
    // The value axis's labels: every one a short dollar amount.
    const labels = cost.locator("svg text").filter({ hasText: /^\$/ });
    await expect.poll(() => labels.count()).toBeGreaterThan(1);
    for (const tick of await labels.allTextContents()) expect(tick).toMatch(/^\$[0-9.]+$/);
    // Every tick label fits inside the chart: none is cut at the left edge.
    const box = (await cost.locator(".recharts-wrapper").boundingBox())!;
    for (const tick of await labels.all()) {
      expect((await tick.boundingBox())!.x).toBeGreaterThanOrEqual(box.x);
    }
    await noSidewaysScroll(page);
  }
});
