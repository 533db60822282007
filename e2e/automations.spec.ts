import { expect, test } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { scriptModel } from "./model-script";
import { query } from "./trpc";
import { screenshot } from "./screenshot";
import { actUntilVisible } from "./act-until-visible";

test.describe.configure({ timeout: 150_000 });

const template = { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] };

test("automations: create a schedule with its cron preview, press Test, and open the session it started", async ({
  page,
}, testInfo) => {
  const agentName = `Reporter ${Date.now().toString(36)}`;
  await createAgentFromList(page, agentName);
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page.getByLabel("Agent template (JSON)").fill(JSON.stringify(template, null, 2));
  await page.getByLabel("Commit message").fill("On the scripted model");
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");

  await page.goto("/automations");
  await expect(page.getByRole("heading", { level: 1, name: "Automations" })).toBeVisible();
  const form = page.getByRole("form", { name: "New schedule" });
  // The button toggles the form once the page has hydrated: a second press would close it.
  await actUntilVisible(
    () => page.getByRole("button", { name: "New schedule" }).first().click({ timeout: 5_000 }),
    form,
  );
  await form.getByLabel("Name").fill("Nightly report");
  await form.getByLabel("Agent").selectOption({ label: agentName });
  await form.getByLabel("Cron").fill("30 2 * * *");
  await form.getByLabel("Time zone").fill("Europe/Berlin");
  await expect(form.getByTestId("cron-preview")).toContainText("At 02:30 AM (Europe/Berlin)");
  await expect(form.getByTestId("cron-preview").locator("li")).toHaveCount(5);
  await form.getByLabel("Message").fill("Write the nightly report for {{ scheduled_at }}");
  await screenshot(page, testInfo, "automations-new-schedule");
  await form.getByRole("button", { name: "Create schedule" }).click();

  const row = page.getByRole("listitem", { name: "Automation Nightly report" });
  await expect(row).toContainText("Next run:");
  await scriptModel({ kind: "reply", text: "The nightly report is ready." });
  await row.getByRole("button", { name: "Test" }).click();
  const deliveries = row.getByRole("list", { name: "Deliveries" });
  await expect(deliveries).toContainText("started");
  await expect(deliveries.getByRole("link", { name: "Open session" })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText("Last run:");
  await screenshot(page, testInfo, "automations-tested");

  // An inbound trigger: its URL and secret are shown once, after saving.
  await page.getByRole("button", { name: "New trigger" }).click();
  const trigger = page.getByRole("form", { name: "New trigger" });
  await trigger.getByLabel("Runs when").selectOption("inbound");
  await trigger.getByLabel("Name").fill("GitHub issues");
  await trigger.getByLabel("Signature scheme").selectOption("github");
  await trigger.getByLabel("Message").fill("Triage {{ issue.title }}");
  await trigger.getByRole("button", { name: "Create trigger" }).click();
  await expect(page.getByText("Inbound trigger created")).toBeVisible();
  await expect(page.getByText(/\/api\/automations\/[0-9a-f-]{36}\/inbound/).first()).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("listitem", { name: "Automation GitHub issues" })).toContainText("(github)");

  await deliveries.getByRole("link", { name: "Open session" }).click();
  // The revision the run ran (v2, committed above), and the run's conversation kept as a chat
  // session: the address names it once the page has stored it.
  await expect(page.getByText("The nightly report is ready.")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("user-message").getByText("Write the nightly report for")).toBeVisible();
  await expect(page.getByLabel("Chat with").locator("option:checked")).toHaveText("Revision v2");
  await expect(page).toHaveURL(/\/chat\?revision=[0-9a-f-]+&session=/);
  const session = new URL(page.url()).searchParams.get("session")!;
  await expect
    .poll(async () => (await query<{ id: string } | null>(page.request, "chatSessions.get", { id: session }))?.id)
    .toBe(session);
});
