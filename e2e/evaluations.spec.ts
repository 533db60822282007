import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { scriptModelByRequest } from "./model-script";
import { expectFits } from "./screenshot";
import { mutate } from "./trpc";

/**
 * The quality loop in the browser: a judge evaluator from a preset (tried on a sample first), an
 * evaluation of two revisions from the agent page, the comparison with the regressed row first,
 * the results page, and the same comparison reached from the history. Every page fits 390 px and
 * 1280 px, light and dark; screenshots are kept as test output.
 */

test.describe.configure({ timeout: 180_000 });

const MARKER = "Answer-with-the-city-only-V2";
const LONG_ANSWER = `Madrid. ${"The capital sits on the Manzanares river in the centre of the peninsula. ".repeat(70)}`;

const TESTCASES = [
  { question: "What is the capital of France?", correct_answer: "Paris" },
  { question: "What is the capital of Germany?", correct_answer: "Berlin" },
  { question: "What is the capital of Italy?", correct_answer: "Rome" },
  { question: "What is the capital of Spain?", correct_answer: "Madrid" },
];

const reply = (text: string) => ({ kind: "reply" as const, text, usage: { input: 40, output: 4 } });

/** The model answers by what it is asked: v2 (its instructions carry the marker) gets Germany wrong. */
async function scriptCapitals() {
  await scriptModelByRequest([
    { match: ["You grade an AI answer"], script: reply('{"score": 0.9, "reason": "The answer names a capital."}') },
    { match: [MARKER, "Germany"], script: reply("Munich") },
    { match: ["France"], script: reply("Paris") },
    { match: ["Germany"], script: reply("Berlin") },
    { match: ["Italy"], script: reply("Rome") },
    { match: ["Spain"], script: reply(LONG_ANSWER) },
  ]);
}

// The rules answer by what a request says: later specs script the model themselves.
test.afterEach(async () => {
  await scriptModelByRequest([]);
});

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

test("judge from a preset, evaluation of two revisions, comparison with the regressed row first", async ({
  page,
  request,
}, testInfo) => {
  await scriptCapitals();

  // An agent with two revisions; the second one's instructions carry the marker.
  const created = await mutate(request, "agents.create", { name: `Capitals ${Date.now().toString(36)}` });
  const template = created.revision.data.parameters.agent;
  const v2 = await mutate(request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: `${MARKER}. Reply with the city name.` } },
    message: "Terser instructions",
  });
  const agentBase = `/agents/${created.agent.id}/variants/${created.variant.id}`;

  // A testset through the public API (its pages are not this spec's subject).
  const apiKey = await mutate(request, "apiKeys.create", { name: `evaluations ${Date.now()}` });
  const testset = await request.post("/api/simple/testsets/", {
    headers: { authorization: `ApiKey ${apiKey.key}` },
    data: { testset: { name: `Capitals ${Date.now().toString(36)}`, data: { testcases: TESTCASES } } },
  });
  expect(testset.status(), await testset.text()).toBe(200);

  // Evaluators: the catalog, a judge from the "Answer relevance" preset, tried on a sample.
  await page.goto("/evaluators");
  await expect(page.getByRole("heading", { level: 1, name: "Evaluators" })).toBeVisible();
  await page.getByRole("link", { name: "New evaluator" }).first().click();
  await page
    .getByRole("list", { name: "Presets" })
    .getByRole("link", { name: /Answer relevance/ })
    .click();
  await expect(page).toHaveURL(/preset=answer_relevance/);
  await expect(page.getByTestId("prompt-message")).toHaveCount(2);
  await expect(page.getByLabel("Content of message 1")).toHaveValue(/You grade an AI answer/);
  await expect(page.getByLabel("Judge provider")).toHaveValue("openai");
  await expect(page.getByLabel("Judge model")).toHaveValue("gpt-5-mini");
  await page.getByRole("button", { name: "Run on sample" }).click();
  const verdict = page.getByTestId("trial-verdict");
  await expect(verdict).toContainText("Score 0.90");
  await expect(verdict).toContainText("The answer names a capital.");
  await expect(verdict).toContainText("Pass");
  await shoot(page, testInfo, "judge-from-preset");
  await page.getByLabel("Name").fill("Relevance judge");
  await page.getByRole("button", { name: "Create evaluator" }).click();
  await expect(page).toHaveURL(/\/evaluators\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("list", { name: "Revisions" }).getByText("v1")).toBeVisible();

  // A second evaluator that can fail: exact match, from its preset.
  await page.goto("/evaluators/new?preset=exact_match_case_insensitive");
  // Its description's `{`-style code is drawn as code, not as backticks.
  await expect(page.getByText(/`/)).toHaveCount(0);
  await page.getByLabel("Name").fill("Exact city");
  await page.getByRole("button", { name: "Create evaluator" }).click();
  await expect(page).toHaveURL(/\/evaluators\/[0-9a-f-]{36}$/);
  // The page is titled by the evaluator's name, renamed in place.
  await expect(page.getByRole("heading", { level: 1, name: "Exact city" })).toBeVisible();
  await page.getByRole("button", { name: "Rename evaluator" }).click();
  await page.getByLabel("Evaluator name").fill("Exact city, renamed");
  await page.getByLabel("Evaluator name").press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Exact city, renamed" })).toBeVisible();
  // Try it: the sample names the answer column the evaluator reads, and what is typed survives a save.
  const sample = page.getByLabel("Testcase (JSON object of columns)");
  await expect(sample).toHaveValue(/"correct_answer": "4"/);
  await sample.fill('{"question": "Capital of Peru?", "correct_answer": "Lima"}');
  await page.getByRole("button", { name: "Commit revision" }).click();
  await expect(page.getByRole("list", { name: "Revisions" }).getByText("v2")).toBeVisible();
  await expect(sample).toHaveValue(/Capital of Peru/);
  await page.goto("/evaluators");
  // Other specs may have made evaluators in this project too.
  await expect(page.getByTestId("evaluator-row").filter({ hasText: "Relevance judge" })).toHaveCount(1);
  await expect(page.getByTestId("evaluator-row").filter({ hasText: "Exact city" })).toHaveCount(1);

  // Run both revisions from the agent page.
  await page.goto(agentBase);
  await page.getByRole("button", { name: "Evaluate" }).click();
  const dialog = page.getByRole("dialog", { name: "Run an evaluation" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^v1/).check();
  await expect(dialog.getByLabel(/^v2/)).toBeChecked();
  await dialog.getByLabel("Testset").selectOption({ index: 1 });
  await dialog.getByLabel(/Relevance judge/).check();
  await dialog.getByLabel(/Exact city/).check();
  await dialog.getByRole("button", { name: "Start 2 runs" }).click();

  // The comparison: v1 is the baseline, the Germany row regressed and comes first.
  await expect(page).toHaveURL(/\/evaluations\/compare\?runs=/, { timeout: 60_000 });
  await expect(page.getByTestId("compared-run")).toHaveCount(2);
  await expect(page.getByTestId("compare-row")).toHaveCount(4, { timeout: 60_000 });
  const first = page.getByTestId("compare-row").first();
  await expect(first).toHaveAttribute("data-trend", "regressed", { timeout: 60_000 });
  await expect(first).toContainText("Germany");
  await expect(first.getByTestId("word-diff").locator("ins")).toHaveText("Munich");
  await expect(first.getByTestId("word-diff").locator("del")).toHaveText("Berlin");
  await expect(first).toContainText("−1.00");
  await expect(page.getByText("4 testcases · 1 regressed")).toBeVisible();
  await shoot(page, testInfo, "comparison");
  const compareUrl = page.url();

  // The v2 run's results: progress done, aggregates, one row per testcase, the failed filter.
  await page.getByTestId("compared-run").nth(1).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/evaluations\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("progress-text")).toHaveText(/^(\d+) \/ \1 cells$/, { timeout: 60_000 });
  await expect(page.getByTestId("result-row")).toHaveCount(4);
  await expect(page.getByTestId("aggregate").filter({ hasText: "relevance-judge" })).toContainText("0.90");
  await expect(page.getByTestId("aggregate").filter({ hasText: "exact-city" })).toContainText("0.50");
  await expect(page.getByTestId("aggregate").filter({ hasText: "Cost" })).toContainText("tokens");
  await page.getByLabel("Show rows").selectOption("failed");
  await expect(page.getByTestId("result-row")).toHaveCount(2);
  await expect(page.getByTestId("result-row").first()).toContainText("Munich");
  await page.getByLabel("Show rows").selectOption("all");
  await page.getByLabel("Deltas against").selectOption({ index: 1 });
  await expect(page.getByTestId("aggregate").filter({ hasText: "exact-city" })).toContainText("−0.25");
  await shoot(page, testInfo, "results");

  // From the history: select both revisions, compare their evaluations.
  await page.goto(`${agentBase}/history`);
  await expect(page.getByTestId("revision-row")).toHaveCount(2);
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  await page.getByRole("link", { name: "Compare evaluations" }).click();
  await expect(page).toHaveURL(new RegExp(`revisions=${created.revision.id},${v2.revision.id}`));
  await expect(page.getByTestId("compare-row").first()).toHaveAttribute("data-trend", "regressed");
  await expect(page.getByTestId("compare-row").first()).toContainText("Munich");

  // Every page of the loop at a phone and a laptop width, light and dark (the long answer included).
  const resultsUrl = (await page.getByTestId("compared-run").nth(1).getByRole("link").first().getAttribute("href"))!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    for (const [name, url] of [
      ["evaluators", "/evaluators"],
      ["new-evaluator", "/evaluators/new?preset=answer_relevance"],
      ["evaluations", "/evaluations"],
      ["results", resultsUrl],
      ["comparison", compareUrl],
    ] as const) {
      await page.goto(url);
      await page.waitForLoadState("networkidle").catch(() => undefined);
      await expect(page.locator(".animate-pulse")).toHaveCount(0);
      await expectFits(page, testInfo, `${name}-${width}`);
    }
  }
});

test("empty states say what to do first", async ({ page }) => {
  await page.goto("/evaluations/compare");
  await expect(page.getByText("Pick two runs")).toBeVisible();
  await page.goto("/evaluations/00000000-0000-7000-8000-000000000000");
  await expect(page.getByText("Could not load the evaluation")).toBeVisible();
});
