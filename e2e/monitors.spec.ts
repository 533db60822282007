import { expect, test } from "@playwright/test";
import { actUntilVisible } from "./act-until-visible";
import { createAgentFromList } from "./create-agent";
import { scriptModel } from "./model-script";
import { screenshot } from "./screenshot";
import { query } from "./trpc";

test.describe.configure({ timeout: 240_000 });

test("monitors: create one from an Analytics chart, see it fire with its chart and history (a failed Slack post says so), mute it", async ({
  page,
}, testInfo) => {
  const name = `Monitored ${Date.now().toString(36)}`;
  await createAgentFromList(page, name);
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page
    .getByLabel("Agent template (JSON)")
    .fill(JSON.stringify({ llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] }));
  await page.getByLabel("Commit message").fill("On the scripted model");
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");
  await page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Chat", exact: true }).click();
  await scriptModel({ kind: "reply", text: "Watched answer.", usage: { input: 100, output: 20 } });
  const composer = page.getByLabel("Message the agent");
  await composer.fill("Hello");
  await composer.press("Enter");
  await expect(page.getByText("Watched answer.")).toBeVisible();

  // The run reaches the roll-ups through the ingest worker; then the Analytics page draws it.
  await page.goto("/analytics");
  const runsChart = page.getByRole("link", { name: "Alert me when runs crosses a threshold" });
  await expect(async () => {
    await page.reload();
    // The charts load after the page: on a loaded machine with many runs that takes seconds.
    await expect(runsChart).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  await runsChart.click();

  await expect(page).toHaveURL(/\/monitors\?new=1&metric=count/);
  const form = page.getByRole("form", { name: "New monitor" });
  await expect(form.getByRole("combobox", { name: /^Metric/ })).toHaveValue("count");
  await form.getByLabel("Name", { exact: true }).fill(`Any run of ${name}`);
  await form.getByRole("combobox", { name: /^Fires when/ }).selectOption("above");
  await form.getByLabel("Threshold", { exact: true }).fill("0");
  await form.getByLabel("Minimum runs in the window").fill("1");
  await form.getByRole("combobox", { name: /^Window/ }).selectOption("900");
  // A Slack hook nothing listens at (port 2 refuses): its post fails, and the history must say so.
  await form.getByLabel("Slack incoming webhook URL").fill("https://127.0.0.1:2/services/T000/B000/XXXX");
  await screenshot(page, testInfo, "monitors-new");
  await form.getByRole("button", { name: "Create monitor" }).click();

  const list = page.getByRole("list", { name: "Monitors" });
  await expect(list).toContainText(`Any run of ${name}`);
  await expect(list).toContainText("run count above 0");
  // The worker evaluates every minute of the clock: within about a minute it fires.
  const monitors = await query<{ id: string; name: string }[]>(page.request, "monitors.list");
  const id = monitors.find((m) => m.name === `Any run of ${name}`)!.id;
  await expect
    .poll(async () => (await query<{ state: string }>(page.request, "monitors.get", { id })).state, {
      timeout: 100_000,
      intervals: [2_000],
    })
    .toBe("alerting");
  await page.goto(`/monitors?monitor=${id}`);
  await expect(page.getByTestId("monitor-state")).toContainText("Alerting");
  await expect(page.getByTestId("monitor-chart")).toBeVisible();
  await expect(page.getByTestId("monitor-chart")).toHaveAttribute("aria-label", /threshold at 0/);
  const history = page.getByRole("region", { name: "Alert history" });
  await expect(history).toContainText("fired");
  // The failed Slack post reads as failing, with why, never as sent (the page looks again while it retries).
  const messages = history.getByRole("list", { name: "Channel messages" }).first();
  await expect(messages).toContainText("Slack retrying", { timeout: 30_000 });
  await expect(messages).toContainText("ECONNREFUSED");
  await expect(messages).toContainText("127.0.0.1:2");
  await expect(history).not.toContainText("XXXX");
  await screenshot(page, testInfo, "monitors-alerting");

  await actUntilVisible(
    () => page.getByRole("button", { name: "Mute 1 h" }).click({ timeout: 5_000 }),
    page.getByRole("button", { name: "Unmute" }),
  );
  await expect(list.getByText("Muted")).toBeVisible();
  await expect(page.getByTestId("monitor-state")).toContainText("muted until");
  await page.getByRole("button", { name: "Unmute" }).click();
  await expect(page.getByRole("button", { name: "Mute 1 h" })).toBeVisible();
  await expect(list.getByText("Muted")).toHaveCount(0);
});
