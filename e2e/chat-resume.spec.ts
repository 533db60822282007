import { expect, test } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { scriptModel } from "./model-script";

test.describe.configure({ timeout: 120_000 });

const template = {
  instructions: { agents_md: "Answer at length." },
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [],
};

test("chat: reloading the page mid-turn shows the turn continuing, and Stop cancels the run", async ({ page }) => {
  await createAgentFromList(page, `Resumer ${Date.now().toString(36)}`);
  await expect(page.getByTestId("current-version")).toHaveText("v1");
  const editorUrl = page.url();
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page.getByLabel("Agent template (JSON)").fill(JSON.stringify(template, null, 2));
  await page.getByLabel("Commit message").fill("A slow talker");
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");
  await page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Chat" }).click();
  await expect(page).toHaveURL(`${editorUrl}/chat`);

  // A reply written over a few seconds; the page goes away in the middle of it.
  const words = Array.from({ length: 24 }, (_, i) => `word${i}`).join(" ");
  await scriptModel({ kind: "reply", text: words, chunks: 24, frameDelayMs: 150 });
  const composer = page.getByLabel("Message the agent");
  await composer.fill("Tell me a long story");
  await composer.press("Enter");
  await expect(page.getByText(/word3/)).toBeVisible();
  // The URL names the session once the sent message is kept.
  await expect(page).toHaveURL(/session=/);
  await page.reload();
  await expect(page.getByTestId("user-message").getByText("Tell me a long story")).toBeVisible();
  await expect(page.getByText(words)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("assistant-message")).toHaveCount(1);
  // The resumed turn has ended (its stream closed): the composer sends again.
  await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible({ timeout: 15_000 });

  // Stop ends the run on the server, not only in this tab: a reload finds nothing running. It is
  // pressed before the turn's answer has started (the request held back a second): it stops this
  // turn, not the one before it.
  await scriptModel({ kind: "hang" });
  await page.route(
    "**/api/playground/invoke",
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    },
    { times: 1 },
  );
  await composer.fill("Are you there?");
  await composer.press("Enter");
  await expect(page.getByText("Waiting for the agent…")).toBeVisible();
  const cancelled = page.waitForResponse((r) => /\/api\/playground\/runs\/[^/]+\/cancel$/.test(r.url()));
  await page.getByRole("button", { name: "Stop" }).click();
  const answer = await cancelled;
  expect(answer.status()).toBe(200);
  expect((await answer.json()).status).toBe("cancelled");
});
