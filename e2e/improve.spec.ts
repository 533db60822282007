import { expect, test } from "@playwright/test";
import { actUntilVisible } from "./act-until-visible";
import { apiClient, finished } from "./eval-seed";
import { scriptModel, scriptModelByRequest } from "./model-script";
import { expectFits } from "./screenshot";
import { mutate } from "./trpc";

/**
 * The improvement loop in the browser: the agent's failing runs on the traces list, "Find what
 * fails" names their failure mode (the scripted model groups them), the mode becomes a testset,
 * "Improve" starts an optimization whose scripted optimizer model proposes the missing
 * instruction, the report shows the winner beating the base with the instruction in its diff,
 * and "Start canary" sends it a share of staging's traffic.
 */

test.describe.configure({ timeout: 300_000 });

/** What the winner's instructions carry, and what an agent told it answers. */
const POLICY = "Refund-policy-30-days";
const GOOD = "Refunds are accepted within 30 days of purchase.";
const BAD = "I cannot help with that.";
const MODE = "Ignores the refund policy";
/** The judge's own words: none of them is "refund", so its calls never read as the agent's. */
const JUDGE = "You grade support answers";

const QUESTIONS = [
  "Can I get a refund for my blender?",
  "How do I return shoes for a refund?",
  "I want a refund for a late order.",
  "Is a refund possible after two weeks?",
  "A refund for a damaged lamp, please.",
  "Can you refund my subscription?",
  "What is your refund window?",
  "My refund has not arrived, what now?",
];

const reply = (text: string) => ({ kind: "reply" as const, text, usage: { input: 60, output: 12 } });

/**
 * The model answers by what it is asked, the most specific rule first: the triage's grouping
 * call, the optimizer's rewrite, the judge (1 when the answer states the refund window), and the
 * agent itself (right only when its instructions carry the policy).
 */
async function scriptImprovementLoop() {
  // What no rule matches gets the bad answer, not an earlier spec's script.
  await scriptModel(reply(BAD));
  await scriptModelByRequest([
    {
      match: ["You triage failures of an LLM agent"],
      script: reply(
        JSON.stringify({
          modes: [
            {
              name: MODE,
              description: "Refund questions are answered without the 30-day refund window.",
              failures: Array.from({ length: 50 }, (_, i) => i),
            },
          ],
        }),
      ),
    },
    {
      match: ["You improve the instructions"],
      script: reply(`<instructions>Answer customer questions politely.\n${POLICY}: ${GOOD}</instructions>`),
    },
    { match: [JUDGE, "within 30 days"], script: reply('{"score": 1, "reason": "Says how many days."}') },
    { match: [JUDGE], script: reply('{"score": 0, "reason": "Says nothing of the days."}') },
    { match: [POLICY], script: reply(GOOD) },
    { match: ["refund"], script: reply(BAD) },
  ]);
}

test.afterEach(async () => {
  await scriptModelByRequest([]);
});

test("find what fails on the traces list, make a testset, improve the agent, read the report, start the canary", async ({
  page,
  request,
}, testInfo) => {
  await scriptImprovementLoop();
  const stamp = Date.now().toString(36);

  // An agent that answers refund questions badly, running in staging.
  const created = await mutate(request, "agents.create", { name: `Refund desk ${stamp}` });
  const template = created.revision.data.parameters.agent;
  const base = await mutate(request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: "Answer customer questions politely." } },
    message: "Polite answers",
  });
  await mutate(request, "agents.deploy", { revisionId: base.revision.id, environment: "staging" });
  const slug = created.agent.slug as string;

  // Its failing runs: an evaluation of the base over refund questions, scored by the judge.
  const api = await apiClient(request);
  const questions = await api.create("testsets", "testset", {
    slug: `refund-questions-${stamp}`,
    data: { testcases: QUESTIONS.map((question) => ({ question })) },
  });
  const judge = await api.create("evaluators", "evaluator", {
    slug: `refund-judge-${stamp}`,
    name: `Refund judge ${stamp}`,
    data: {
      uri: "svc:builtin:auto_ai_critique:v0",
      parameters: {
        prompt_template: [
          {
            role: "system",
            content: `${JUDGE}: 1 when the answer says how many days a customer has. Reply with JSON {"score": <0 to 1>}.`,
          },
          { role: "user", content: "Answer: {{outputs}}" },
        ],
        model: "openai/gpt-5-mini",
        threshold: 0.5,
      },
    },
  });
  const run = await api.evaluate(
    {
      testset_steps: [questions.revision_id],
      application_steps: [base.revision.id],
      evaluator_steps: { [judge.revision_id]: "auto" },
    },
    finished,
    `Refund desk ${stamp} before`,
  );
  expect(run.data.status).toBe("success");

  // The traces list, filtered to the agent's runs: "Find what fails" with the grouping model.
  await page.goto(`/traces?agent=${encodeURIComponent(slug)}`);
  await expect(page.getByTestId("trace-row").first()).toBeVisible({ timeout: 60_000 });
  const find = page.getByRole("dialog", { name: "Find what fails" });
  await actUntilVisible(() => page.getByRole("button", { name: "Find what fails" }).click({ timeout: 5_000 }), find);
  await find.getByLabel("Model (optional)").fill("openai/gpt-5-mini");
  await find.getByLabel("Examples per mode").fill("8");
  await find.getByRole("button", { name: "Start triage" }).click();
  await expect(page).toHaveURL(/\/improve\/triages\/[0-9a-f-]{36}$/);

  // The named failure mode, with its count and examples linked to their traces.
  const mode = page.getByTestId("failure-mode").first();
  await expect(page.getByTestId("failure-mode-name").first()).toHaveText(MODE, { timeout: 90_000 });
  await expect(page.getByTestId("improve-status")).toHaveText("Done");
  await expect(page.getByText(/\d+ failing/).first()).toBeVisible();
  await expect(mode.getByRole("link", { name: "Open trace" }).first()).toHaveAttribute("href", /^\/traces\//);
  await expectFits(page, testInfo, "triage-1280");

  // The mode becomes a testset.
  const card = page
    .locator("section")
    .filter({ has: page.getByTestId("failure-mode-name") })
    .first();
  await card.getByRole("button", { name: "Make testset" }).click();
  const make = page.getByRole("dialog", { name: "Make a testset" });
  await expect(make.getByLabel("Name")).toHaveValue(MODE);
  await make.getByLabel("Name").fill(`Refund failures ${stamp}`);
  await make.getByRole("button", { name: "Create testset" }).click();
  await expect(card.getByText("Testset made")).toBeVisible();

  // "Improve" on the mode: the agent's base revision, the testset just made, the judge.
  await card.getByRole("button", { name: "Improve" }).click();
  const improve = page.getByRole("dialog", { name: "Improve" });
  await improve.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: created.agent.name });
  await improve.getByLabel("Base revision").selectOption({ label: "v2 · Polite answers" });
  await expect(improve.getByLabel("Testset")).not.toHaveValue("");
  await improve.getByLabel(new RegExp(`Refund judge ${stamp}`)).check();
  await improve.getByLabel("Optimizer model").fill("openai/gpt-5-mini");
  await improve.getByLabel("Rounds").fill("1");
  await improve.getByLabel("Candidates per round").fill("1");
  await improve.getByRole("button", { name: "Start optimization" }).click();
  await expect(page).toHaveURL(/\/improve\/optimizations\/[0-9a-f-]{36}$/);

  // The report: the run finishes; the winner beats the base on the held-out cases.
  await expect(page.getByTestId("improve-status")).toHaveText("Done", { timeout: 180_000 });
  await expect(page.getByTestId("round-chart")).toBeVisible();
  await expect(page.getByTestId("candidate-row")).toHaveCount(1);
  const scores = page.getByRole("table", { name: "Base and winner" });
  await expect(scores).toContainText("Held-out score");
  await expect(scores.getByRole("row").filter({ hasText: "Held-out score" })).toContainText("100.0%");
  await expect(page.getByTestId("difference-interval")).toContainText("interval of the difference");
  await expect(page.getByTestId("wins-losses")).toContainText(/[1-9]\d* wins/);
  await expect(page.getByTestId("wins-losses")).toContainText("0 losses");
  await expect(page.getByRole("table", { name: "Base against winner" })).toContainText(POLICY);
  await expectFits(page, testInfo, "report-1280");

  // The same report fits a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("table", { name: "Base and winner" })).toBeVisible();
  await expectFits(page, testInfo, "report-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // One click more: a canary of the winner on staging.
  await page.getByRole("button", { name: "Start canary" }).click();
  const canary = page.getByRole("dialog", { name: "Start a canary of the winner" });
  await canary.getByLabel("Environment").selectOption("staging");
  await canary.getByLabel("Share of traffic (%)").fill("10");
  await canary.getByRole("button", { name: "Start canary at 10%" }).click();
  await expect(page.getByText("Canary started")).toBeVisible();

  await page.getByRole("link", { name: "Watch it on the environment" }).click();
  await expect(page).toHaveURL(/\/environments\/staging$/);
  const split = page.getByTestId("canary-card").filter({ hasText: `${slug}.revision` });
  await expect(split.getByTestId("canary-weight")).toHaveText("10%");

  // The list of the loop's work names both.
  await page.goto("/improve");
  await expect(page.getByTestId("triage-row").first()).toContainText("Done");
  await expect(page.getByTestId("optimization-row").first()).toContainText("Done");
  await expectFits(page, testInfo, "improve-list-1280");
});
