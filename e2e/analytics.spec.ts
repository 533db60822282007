import { expect, test, type Page } from "@playwright/test";
import { rangeQuery } from "../components/analytics/analytics-range";
import { createAgentFromList } from "./create-agent";
import { scriptModel } from "./model-script";

test.describe.configure({ timeout: 180_000 });

const stamp = Date.now().toString(36);
const agents = [
  { name: `Analytics A ${stamp}`, model: "gpt-5-mini" },
  { name: `Analytics B ${stamp}`, model: "gpt-4.1-mini" },
];

/** Commits the agent on its model and runs one chat turn with a known usage. */
async function runOnce(page: Page, name: string, model: string): Promise<string> {
  await createAgentFromList(page, name);
  const agentId = page.url().match(/\/agents\/([0-9a-f-]{36})/)![1];
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page
    .getByLabel("Agent template (JSON)")
    .fill(JSON.stringify({ llm: { provider: "openai", model }, tools: [] }));
  await page.getByLabel("Commit message").fill(`On ${model}`);
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");
  await page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Chat", exact: true }).click();
  await scriptModel({ kind: "reply", text: `Answer from ${model}.`, usage: { input: 1000, output: 200 } });
  const composer = page.getByLabel("Message the agent");
  await composer.fill("Hello");
  await composer.press("Enter");
  await expect(page.getByText(`Answer from ${model}.`)).toBeVisible();
  return agentId;
}

/** The same query the page sends, through the playground's tRPC door (the function behind POST /api/analytics/query). */
async function apiTotals(page: Page, group: "agent" | "model", range: "1h" | "7d" = "7d") {
  const input = encodeURIComponent(JSON.stringify({ json: rangeQuery(range, group, new Date()) }));
  const response = await page.request.get(`/api/trpc/analytics.query?input=${input}`);
  expect(response.ok()).toBe(true);
  return (await response.json()).result.data.json as {
    metrics: { count: number; costs: Record<string, number> };
    groups: { key?: string; metrics: { count: number } }[];
  };
}

test("analytics: the Overview opens on the charts; totals and groups match the API; the table exports CSV", async ({
  page,
}) => {
  const ids: string[] = [];
  for (const a of agents) ids.push(await runOnce(page, a.name, a.model));

  // Runs reach the roll-ups through the trace ingest worker, moments after the turn.
  await expect(async () => {
    const byAgent = await apiTotals(page, "agent");
    for (const id of ids) expect(byAgent.groups.find((g) => g.key === id)?.metrics.count).toBe(1);
  }).toPass({ timeout: 30_000 });
  const api = await apiTotals(page, "agent");

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
  await expect(page.getByTestId("analytics-total-runs")).toHaveText(String(api.metrics.count));
  const table = page.getByTestId("analytics-table");
  for (const a of agents) await expect(table.getByRole("row", { name: new RegExp(a.name) })).toContainText(a.name);
  // The table's runs add up to the chart's total.
  const runs = await table.locator("tbody tr td:nth-child(2)").allTextContents();
  expect(runs.reduce((s, v) => s + Number(v), 0)).toBe(api.metrics.count);

  // By model: both models are series of the charts and rows of the table.
  await page.getByLabel("Group by").selectOption("model");
  const byModel = await apiTotals(page, "model");
  for (const a of agents) {
    const expected = byModel.groups.find((g) => g.key === a.model)!.metrics.count;
    await expect(table.getByRole("row", { name: new RegExp(a.model.replaceAll(".", "\\.")) })).toContainText(
      String(expected),
    );
  }

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("analytics-by-model.csv");
  const csv = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(csv).toString()).toMatch(/^Model,Runs,Errors,/);

  // The last hour in minutes (computed from the spans): the same runs.
  await page.getByLabel("Range", { exact: true }).selectOption("1h");
  await expect(page.getByTestId("analytics-total-runs")).toHaveText(
    String((await apiTotals(page, "model", "1h")).metrics.count),
  );

  // A click on a chart opens the traces of that point's bucket: one minute, not the whole range.
  await page.locator(".recharts-wrapper").first().click();
  await expect(page).toHaveURL(/\/traces\?.*from=.*&to=/);
  const url = new URL(page.url());
  const [from, to] = ["from", "to"].map((p) => Date.parse(url.searchParams.get(p)!));
  expect(to - from).toBe(60_000);
  await expect(page.getByLabel("Time")).toHaveValue("range");
});
