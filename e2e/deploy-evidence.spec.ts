import { expect, test, type Page } from "@playwright/test";
import { apiClient, finished } from "./eval-seed";
import { scriptModel } from "./model-script";
import { screenshot } from "./screenshot";
import { mutate } from "./trpc";
import { actUntilVisible } from "./act-until-visible";

/**
 * The deploy dialog with evidence: each side's latest evaluation on one testset and the score
 * deltas; then the production rule set in Settings refusing an unevaluated revision with the
 * server's message, and the dialog's own "Run an evaluation" clearing the way.
 */
const SUMS = [
  { question: "What is 2 + 2?", correct_answer: "4" },
  { question: "What is 1 + 3?", correct_answer: "4" },
  { question: "What is 3 + 1?", correct_answer: "4" },
];

test.describe.configure({ mode: "serial" });

let seed: {
  agentId: string;
  variantId: string;
  v1: string;
  v2: string;
  v3: string;
  testsetId: string;
  evaluatorId: string;
};

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const api = await apiClient(context.request);
  const created = await mutate(context.request, "agents.create", { name: `Adder ${Date.now().toString(36)}` });
  const template = created.revision.data.parameters.agent;
  const commit = (agents_md: string) =>
    mutate(context.request, "agents.commit", {
      variantId: created.variant.id,
      template: { ...template, instructions: { agents_md } },
      message: agents_md,
    });
  const v2 = await commit("Answer with the number only.");
  const v3 = await commit("Answer with the number only, no words.");
  const testset = await api.create("testsets", "testset", { slug: `sums-${Date.now()}`, data: { testcases: SUMS } });
  const exact = await api.create("evaluators", "evaluator", {
    slug: `exact-${Date.now()}`,
    data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
  });
  const evaluate = (revision: string) =>
    api.evaluate(
      {
        testset_steps: [testset.revision_id],
        application_steps: [revision],
        evaluator_steps: { [exact.revision_id]: "auto" },
      },
      finished,
    );
  // v1 answers wrong (score 0), v2 right (score 1): the model is scripted per evaluation.
  await scriptModel({ kind: "reply", text: "5" });
  expect((await evaluate(created.revision.id)).data.status).toBe("success");
  await scriptModel({ kind: "reply", text: "4" });
  expect((await evaluate(v2.revision.id)).data.status).toBe("success");
  await mutate(context.request, "agents.deploy", { revisionId: created.revision.id, environment: "production" });
  seed = {
    agentId: created.agent.id,
    variantId: created.variant.id,
    v1: created.revision.id,
    v2: v2.revision.id,
    v3: v3.revision.id,
    testsetId: testset.id,
    evaluatorId: exact.id,
  };
  await context.close();
});

test.afterAll(async ({ browser }) => {
  // Other specs deploy to production: leave no rule behind.
  const context = await browser.newContext();
  await mutate(context.request, "deployGate.clear", undefined);
  await context.close();
});

async function openDeploy(page: Page, revisionId: string) {
  await page.goto(`/agents/${seed.agentId}/variants/${seed.variantId}/deploy?revision=${revisionId}`);
  const card = page.getByTestId("environment-card-production");
  const dialog = page.getByRole("alertdialog");
  await actUntilVisible(
    () => card.getByRole("button", { name: /Deploy v\d+ to production/ }).click({ timeout: 5_000 }),
    dialog,
  );
  return dialog;
}

test("the deploy dialog shows both revisions' latest evaluation on the same testset, with the score delta", async ({
  page,
}, testInfo) => {
  const dialog = await openDeploy(page, seed.v2);
  const evidence = dialog.getByTestId("deploy-evidence");
  await expect(evidence).toContainText("on testset sums-");
  await expect(evidence.getByTestId("evidence-current")).toContainText("Now in production: v1");
  await expect(evidence.getByTestId("evidence-current").getByTestId("evidence-score")).toHaveText("0");
  await expect(evidence.getByTestId("evidence-candidate").getByTestId("evidence-score")).toHaveText("1");
  await expect(evidence.getByTestId("evidence-delta")).toHaveText("+1");
  await expect(evidence.getByTestId("evidence-candidate")).toContainText("3 cases");
  await screenshot(page, testInfo, "deploy-evidence-1280-light");
  // Each scheme and width on a fresh load: Chromium keeps some form controls' colours when the
  // scheme flips under an open page, which would make the screenshots lie.
  for (const [scheme, width] of [
    ["dark", 1280],
    ["dark", 390],
    ["light", 390],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const again = await openDeploy(page, seed.v2);
    await expect(again.getByTestId("evidence-delta")).toHaveText("+1");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await screenshot(page, testInfo, `deploy-evidence-${width}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openDeploy(page, seed.v2);
  await dialog.getByRole("button", { name: "Deploy v2 to production" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("environment-card-production").getByTestId("running-version")).toHaveText("v2");
});

test("under the production rule an unevaluated revision is refused with the server's reason; an evaluation run from the dialog clears it", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // The owner sets the rule in Settings.
  await page.goto("/settings");
  const section = page.getByTestId("deploy-gate");
  await expect(section).toContainText("No rule: production takes any deploy.");
  await page.getByRole("button", { name: "Add a rule" }).click();
  const form = page.getByRole("form", { name: "Production deploy rule" });
  await form.getByLabel("Testset").selectOption(seed.testsetId);
  await form.getByLabel("Evaluator").selectOption(seed.evaluatorId);
  await form.getByLabel("Minimum mean score").fill("0.9");
  await form.getByRole("button", { name: "Save rule" }).click();
  await expect(section).toContainText("of at least 0.9");
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, "settings-deploy-rule");

  const dialog = await openDeploy(page, seed.v3);
  const evidence = dialog.getByTestId("deploy-evidence");
  await expect(evidence.getByTestId("evidence-candidate").getByTestId("not-evaluated")).toBeVisible();
  await expect(evidence).toContainText("v3 does not meet the production rule yet");
  await dialog.getByRole("button", { name: "Deploy v3 to production" }).click();
  const refused = dialog.getByRole("alert").filter({ hasText: "Could not deploy" });
  await expect(refused).toContainText("Deploys to production require an evaluation on testset");
  await expect(refused).toContainText("with a mean score of at least 0.9");
  await expect(refused).toContainText('workflow "adder-');
  await expect(refused).toContainText("has no finished evaluation there");
  // In view where Deploy was pressed (1280x800), without scrolling the dialog's body.
  await expect(refused).toBeInViewport();
  await screenshot(page, testInfo, "deploy-refused");

  // Run one from the dialog: the rule's testset and evaluator are preselected.
  await scriptModel({ kind: "reply", text: "4" });
  await evidence.getByRole("button", { name: "Run an evaluation" }).click();
  const run = evidence.getByRole("form", { name: "Run an evaluation" });
  await expect(run.getByLabel("Testset")).toHaveValue(seed.testsetId);
  await run.getByRole("button", { name: "Start evaluation" }).click();
  await expect(evidence.getByTestId("evidence-candidate").getByTestId("evidence-score")).toHaveText("1", {
    timeout: 60_000,
  });
  await expect(evidence).toContainText("v3 meets the production rule");
  await screenshot(page, testInfo, "deploy-evaluated");
  await dialog.getByRole("button", { name: "Deploy v3 to production" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("environment-card-production").getByTestId("running-version")).toHaveText("v3");
});
