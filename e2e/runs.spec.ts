import { expect, test, type Page } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { mutate } from "./trpc";
import { scriptModel } from "./model-script";
import { screenshot } from "./screenshot";

test.describe.configure({ timeout: 150_000 });

const template = { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] };

const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name, exact: true });

test("runs: a chat turn is listed finished with its cost, a running one refreshes live, filters, and links to its trace and session", async ({
  page,
}, testInfo) => {
  // The scripted model stands behind a custom base URL, which has no list price: the project sets
  // gpt-5-mini's own (0.25 and 2 USD per million input and output tokens).
  const price = await mutate(page.request, "pricing.set", {
    provider: "openai",
    model: "gpt-5-mini",
    usd_per_million_tokens: { prompt: 0.25, completion: 2 },
  });
  await createAgentFromList(page, `Runner ${Date.now().toString(36)}`);
  const editorUrl = page.url();
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page.getByLabel("Agent template (JSON)").fill(JSON.stringify(template, null, 2));
  await page.getByLabel("Commit message").fill("On a priced model");
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");

  // Before any turn: the empty state says how runs come about.
  await tab(page, "Runs").click();
  await expect(page).toHaveURL(`${editorUrl}/runs`);
  await expect(page.getByText("No runs yet")).toBeVisible();
  await screenshot(page, testInfo, "runs-empty-1280-light");

  // A turn in the chat, with a known usage: 1000 in and 200 out on gpt-5-mini is $0.00065.
  await tab(page, "Chat").click();
  await scriptModel({ kind: "reply", text: "Refund issued.", usage: { input: 1000, output: 200 } });
  const composer = page.getByLabel("Message the agent");
  await composer.fill("Refund order 42");
  await composer.press("Enter");
  await expect(page.getByText("Refund issued.")).toBeVisible();
  await expect(page).toHaveURL(/session=/);
  const sessionId = new URL(page.url()).searchParams.get("session")!;

  // A slow second turn, left running while the Runs tab is opened: it shows live, then finishes.
  const words = Array.from({ length: 20 }, (_, i) => `word${i}`).join(" ");
  await scriptModel({ kind: "reply", text: words, chunks: 20, frameDelayMs: 300, usage: { input: 10, output: 5 } });
  await composer.fill("Tell me a long story");
  await composer.press("Enter");
  await expect(page.getByText(/word2/)).toBeVisible();
  await tab(page, "Runs").click();
  const rows = page.getByTestId("run-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-status", "running");
  await expect(rows.first()).toContainText("Running");
  await screenshot(page, testInfo, "runs-running-1280-light");
  // No reload: the list asks again while a run is running.
  await expect(rows.first()).toHaveAttribute("data-status", "finished", { timeout: 20_000 });

  const first = rows.nth(1);
  await expect(first).toHaveAttribute("data-status", "finished");
  await expect(first).toContainText("Finished");
  await expect(first).toContainText("$0.00065");
  await expect(first).toContainText("1,000 in · 200 out");
  await expect(first.getByText("stop", { exact: true })).toBeVisible();
  await expect(first.getByRole("link", { name: sessionId })).toBeVisible();
  // The chat ran the variant's latest revision: the row says which.
  await expect(first.getByTestId("run-revision")).toHaveText("v2");

  // The status filter lives in the URL.
  await page.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(`${editorUrl}/runs?status=failed`);
  await expect(page.getByText("No failed runs")).toBeVisible();
  await page.getByLabel("Status").selectOption("finished");
  await expect(page).toHaveURL(`${editorUrl}/runs?status=finished`);
  await expect(rows).toHaveCount(2);

  // Each scheme and width on a fresh load, without sideways scrolling.
  for (const [scheme, width] of [
    ["light", 1280],
    ["dark", 1280],
    ["dark", 390],
    ["light", 390],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(`${editorUrl}/runs`);
    await expect(rows).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await screenshot(page, testInfo, `runs-${width}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The session opens in the chat with its conversation.
  await page.goto(`${editorUrl}/runs`);
  await rows.nth(1).getByRole("link", { name: sessionId }).click();
  await expect(page).toHaveURL(new RegExp(`/chat\\?session=${sessionId}`));
  await expect(page.getByText("Refund issued.")).toBeVisible();

  // The trace of the first turn opens, with its model call.
  await page.goto(`${editorUrl}/runs`);
  await rows
    .nth(1)
    .getByRole("link", { name: /^Trace/ })
    .click();
  await expect(page).toHaveURL(/\/traces\/[0-9a-f]{32}$/);
  await expect(page.getByTestId("trace-summary")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("chat gpt-5-mini").first()).toBeVisible();
  await screenshot(page, testInfo, "runs-trace-opened");

  // A turn of the editor's chat runs the draft (the agent's, but no revision): listed too, labelled.
  await page.goto(editorUrl);
  await scriptModel({ kind: "reply", text: "Draft says hi." });
  await page.getByRole("button", { name: "Show chat panel" }).click();
  const pane = page.getByRole("complementary", { name: "Chat" });
  await pane.getByLabel("Message the agent").fill("Try the draft");
  await pane.getByLabel("Message the agent").press("Enter");
  await expect(pane.getByText("Draft says hi.")).toBeVisible();
  await tab(page, "Runs").click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toHaveAttribute("data-origin", "playground");
  await expect(rows.first()).toContainText("Draft");
  await expect(rows.first().getByTestId("run-revision")).toHaveCount(0);
  await expect(rows.first()).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await expect(rows.nth(1)).not.toContainText("Draft");
  await expect(rows.nth(1)).toContainText("Playground");
  await screenshot(page, testInfo, "runs-draft-1280-light");
  await mutate(page.request, "pricing.delete", { id: price.id });
});
