import { expect, test, type Page } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { modelRequests, scriptModel } from "./model-script";
import { screenshot } from "./screenshot";

test.describe.configure({ timeout: 120_000 });

async function commitTemplate(page: Page, instruction: string, message: string, version: number) {
  const template = { instructions: { agents_md: instruction }, llm: { provider: "openai", model: "gpt-5-mini" } };
  await page.getByLabel("Agent template (JSON)").fill(JSON.stringify(template, null, 2));
  await page.getByLabel("Commit message").fill(message);
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText(`Committed version ${version}`);
}

test("compare: one message to two revisions at once, two answers side by side", async ({ page }, testInfo) => {
  await createAgentFromList(page, `Comparer ${Date.now().toString(36)}`);
  await expect(page.getByTestId("current-version")).toHaveText("v1");
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await commitTemplate(page, "Speak as Alpha 1a2b.", "Alpha", 2);
  await commitTemplate(page, "Speak as Beta 3c4d.", "Beta", 3);

  await page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Chat" }).click();
  await page.getByRole("navigation", { name: "Chat mode" }).getByRole("link", { name: "Compare side by side" }).click();
  await expect(page).toHaveURL(/\/chat\?compare=1$/);
  const left = page.getByRole("region", { name: "Left side" });
  const right = page.getByRole("region", { name: "Right side" });
  await left.getByLabel("Left side runs").selectOption({ label: "Revision v2: Alpha" });
  await right.getByLabel("Right side runs").selectOption({ label: "Revision v3: Beta" });

  await scriptModel({ kind: "reply", text: "An answer from the scripted model." });
  const before = (await modelRequests()).length;
  await page.getByLabel("Message both").fill("Who are you?");
  await page.getByRole("button", { name: "Send to both" }).click();
  for (const side of [left, right]) {
    await expect(side.getByTestId("user-message")).toHaveText("Who are you?");
    await expect(side.getByText("An answer from the scripted model.")).toBeVisible();
    await expect(side.getByTestId("turn-footer").getByRole("link", { name: /Trace/ })).toBeVisible();
  }
  // Each side ran its own revision.
  const bodies = (await modelRequests()).slice(before).map((r) => JSON.stringify(r.body));
  expect(bodies).toHaveLength(2);
  expect(bodies.filter((b) => b.includes("Alpha 1a2b"))).toHaveLength(1);
  expect(bodies.filter((b) => b.includes("Beta 3c4d"))).toHaveLength(1);
  // A side's target is fixed once it has a conversation; a new comparison starts over.
  await expect(left.getByLabel("Left side runs")).toBeDisabled();
  await screenshot(page, testInfo, "compare");
  // At a phone's width the two sides stack and the page still fits.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(right.getByText("An answer from the scripted model.")).toBeAttached();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await screenshot(page, testInfo, "compare-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: "New comparison" }).click();
  await expect(page.getByTestId("user-message")).toHaveCount(0);
});
