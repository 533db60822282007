import { expect, test } from "@playwright/test";
import { apiClient } from "./eval-seed";
import { scriptModel } from "./model-script";
import { screenshot } from "./screenshot";
import { mutate } from "./trpc";
import { actUntilVisible } from "./act-until-visible";
import { hydrated } from "./hydrated";

/**
 * Human review: an evaluation with a human evaluator (run through the API) opens a queue; the
 * owner goes through it with the keyboard only, and the scores finish the run as its results.
 */
const CASES = [
  { question: "Summarise: the parcel arrived late but intact.", correct_answer: "Late but intact." },
  {
    question: "Summarise: " + "a very long complaint about a refund that never came. ".repeat(40),
    correct_answer: "Refund missing.",
  },
  { question: "Summarise: the user loves the new dashboard.", correct_answer: "Likes the dashboard." },
];

test("annotate a queue with the keyboard: scores 1–5, back and forth, a comment; the run finishes with the people's scores", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const api = await apiClient(request);
  const agent = await mutate(request, "agents.create", { name: `Summariser ${Date.now().toString(36)}` });
  const exact = await api.create("evaluators", "evaluator", {
    slug: `exact-review-${Date.now()}`,
    data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
  });
  const helpfulness = await api.create("evaluators", "evaluator", {
    slug: `helpfulness-${Date.now()}`,
    data: { uri: "svc:custom:feedback:v0", parameters: {} },
  });
  await scriptModel({ kind: "reply", text: "Late but intact." });
  const name = `Support summaries ${Date.now().toString(36)}`;
  // The machine's part (3 outputs, 3 exact-match cells) is done; the people's 3 cells wait.
  const run = await api.evaluate(
    {
      testcases: CASES,
      application_steps: [agent.revision.id],
      evaluator_steps: { [exact.revision_id]: "auto", [helpfulness.revision_id]: "human" },
    },
    (e) => e.progress?.cells_done === 9,
    name,
  );
  expect(run.flags).toMatchObject({ has_human: true, is_queue: true });

  await page.goto("/review");
  const row = page.getByRole("link").filter({ hasText: name });
  await expect(row).toContainText("3 to review");
  await expect(row).toContainText("0 of 3");
  await screenshot(page, testInfo, "review-queues-1280");
  await row.click();

  const kase = page.getByTestId("review-case");
  await expect(kase).toContainText("Case 1 of 3");
  await expect(kase).toContainText("the parcel arrived late");
  await expect(kase).toContainText("Late but intact.");
  await expect(page.getByTestId("review-progress")).toHaveText("0 of 3 reviewed");
  await screenshot(page, testInfo, "review-case-1280-light");

  // 4 scores case 1 and moves on; k goes back to see it; j returns.
  await page.keyboard.press("4");
  await expect(kase).toContainText("Case 2 of 3");
  await expect(page.getByTestId("review-progress")).toHaveText("1 of 3 reviewed");
  await page.keyboard.press("k");
  await expect(kase).toContainText("Case 1 of 3");
  await expect(kase.getByRole("button", { name: "4", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(kase).toContainText("reviewed");
  await page.keyboard.press("j");
  await expect(kase).toContainText("Case 2 of 3");

  // c opens the comment, Escape leaves it, then 2 saves the score with the comment.
  await page.keyboard.press("c");
  await page.keyboard.type("Misses that the refund is still missing.");
  await page.keyboard.press("Escape");
  await page.keyboard.press("2");
  await expect(kase).toContainText("Case 3 of 3");
  await page.keyboard.press("5");
  await expect(page.getByTestId("review-progress")).toHaveText("3 of 3 reviewed");
  await page.keyboard.press("ArrowLeft");
  await expect(kase).toContainText("Case 2 of 3");
  await expect(kase.getByRole("textbox", { name: /Comment/ })).toHaveValue("Misses that the refund is still missing.");

  // The people's scores are the run's results: it finished, with their mean beside exact match.
  await expect
    .poll(async () => (await api.get(`/api/simple/evaluations/${run.id}`)).evaluation.data.status, { timeout: 30_000 })
    .toBe("success");
  const { run: stored } = await api.get(`/api/evaluations/runs/${run.id}`);
  const humanStep = stored.data.steps.find((s: { origin: string }) => s.origin === "human").key;
  const metrics = await api.post("/api/evaluations/metrics/query", {
    metrics: { run_id: run.id, scenario_ids: false },
  });
  const human = metrics.metrics[0].data[humanStep];
  expect(human["attributes.svc.data.outputs.score"]).toMatchObject({ count: 3, mean: (4 + 2 + 5) / 3 });

  await page.goto("/review");
  await expect(page.getByRole("link").filter({ hasText: name })).toContainText("done");

  // Each scheme and width on a fresh load (Chromium keeps some controls' colours when the scheme
  // flips under an open page); the case with its long input must fit a phone.
  await page.getByRole("link").filter({ hasText: name }).click();
  await page.waitForURL(/\/review\/[0-9a-f-]{36}$/);
  const caseUrl = page.url();
  for (const [scheme, width] of [
    ["dark", 1280],
    ["dark", 390],
    ["light", 390],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(caseUrl);
    await expect(kase).toContainText("Case 1 of 3");
    // Keys act once the page has hydrated; a press while case 2 is on its way would skip it.
    await expect(async () => {
      if ((await kase.textContent())?.includes("Case 1 of 3")) await page.keyboard.press("j");
      await expect(kase).toContainText("Case 2 of 3", { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await screenshot(page, testInfo, `review-case-${width}-${scheme}`);
    await page.goto("/review");
    await expect(page.getByRole("link").filter({ hasText: name })).toBeVisible();
    await screenshot(page, testInfo, `review-queues-${width}-${scheme}`);
  }
});

test("a human evaluator and a review queue, both made in the playground: the queue opens on its first case", async ({
  page,
  request,
}, testInfo) => {
  const api = await apiClient(request);
  const stamp = Date.now().toString(36);
  const testset = await api.create("testsets", "testset", {
    name: `Tickets ${stamp}`,
    data: { testcases: CASES },
  });

  // Evaluators > New: a human feedback evaluator, pass or fail.
  await page.goto("/evaluators/new");
  const human = page.getByRole("form", { name: "Human feedback evaluator" });
  await hydrated(human.getByLabel("People give"));
  await human.getByLabel("Name").fill(`Tone ${stamp}`);
  await human.getByLabel("People give").selectOption("pass_fail");
  await human.getByRole("button", { name: "Create human evaluator" }).click();
  await expect(page).toHaveURL(/\/evaluators\/[0-9a-f-]{36}$/);
  await expect(page.getByText("People score with it in review queues")).toBeVisible();

  // Review > New queue over the testset, scored with it.
  await page.goto("/review");
  const dialog = page.getByRole("dialog", { name: "New review queue" });
  await actUntilVisible(
    () => page.getByRole("button", { name: "New queue" }).first().click({ timeout: 5_000 }),
    dialog,
  );
  await dialog.getByLabel("Name", { exact: true }).fill(`Tone check ${stamp}`);
  await dialog.getByLabel("Testset").selectOption(testset.revision_id);
  await dialog.getByLabel(new RegExp(`Tone ${stamp}`)).check();
  // No revision picked: the dialog says the queue is the testcases as they are.
  await expect(dialog.getByText("Inputs only", { exact: true })).toBeVisible();
  await screenshot(page, testInfo, "review-new-queue");
  await dialog.getByRole("button", { name: "Create queue" }).click();
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/);
  const kase = page.getByTestId("review-case");
  await expect(kase).toContainText("Case 1 of 3");
  await expect(kase).toContainText("the parcel arrived late");
  await expect(page.getByText("This queue runs no agent or prompt: judge each testcase as it is.")).toBeVisible();
  await expect(kase.getByRole("link", { name: "Open trace" })).toHaveCount(0);
});

test("a review queue over a testset run through an agent revision: each case shows its input, the agent's output and its trace", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const api = await apiClient(request);
  const stamp = Date.now().toString(36);
  const testset = await api.create("testsets", "testset", { name: `Parcels ${stamp}`, data: { testcases: CASES } });
  await api.create("evaluators", "evaluator", {
    name: `Clarity ${stamp}`,
    slug: `clarity-${stamp}`,
    data: { uri: "svc:custom:feedback:v0", parameters: {} },
  });
  const agent = await mutate(request, "agents.create", { name: `Parcel summariser ${stamp}` });
  await scriptModel({ kind: "reply", text: "Late but intact." });

  await page.goto("/review");
  const dialog = page.getByRole("dialog", { name: "New review queue" });
  await actUntilVisible(
    () => page.getByRole("button", { name: "New queue" }).first().click({ timeout: 5_000 }),
    dialog,
  );
  await dialog.getByLabel("Name", { exact: true }).fill(`Summaries ${stamp}`);
  await dialog.getByLabel("Testset").selectOption(testset.revision_id);
  // The picker lists the project's agents' revisions (and prompts'): never a typed id.
  await dialog.getByRole("combobox", { name: "Run through", exact: true }).selectOption(agent.revision.id);
  await expect(dialog.getByText("Reviewers judge the revision's answers")).toBeVisible();
  await dialog.getByLabel(new RegExp(`Clarity ${stamp}`)).check();
  await screenshot(page, testInfo, "review-new-queue-with-revision");
  await dialog.getByRole("button", { name: "Create queue" }).click();
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/);

  const label = `${agent.agent.slug} v${agent.revision.version}`;
  await expect(page.getByTestId("review-source")).toContainText(label);
  const kase = page.getByTestId("review-case");
  await expect(kase).toContainText("Case 1 of 3");
  await expect(kase).toContainText("the parcel arrived late");
  // The agent's answers arrive while the page is open (it polls while some are on their way).
  await expect(kase.getByRole("region", { name: /Output/ })).toContainText("Late but intact.", { timeout: 60_000 });
  const trace = kase.getByRole("link", { name: "Open trace" });
  await expect(trace).toHaveAttribute("href", /^\/traces\/[0-9a-f]{32}$/);
  await screenshot(page, testInfo, "review-case-with-output");

  await page.keyboard.press("4");
  await expect(page.getByTestId("review-progress")).toHaveText("1 of 3 reviewed");
  await expect(kase).toContainText("Case 2 of 3");

  // The list says whose outputs the queue shows.
  await page.goto("/review");
  await expect(page.getByRole("link").filter({ hasText: `Summaries ${stamp}` })).toContainText(`outputs of ${label}`);

  // The case's trace link opens the agent's trace.
  await page
    .getByRole("link")
    .filter({ hasText: `Summaries ${stamp}` })
    .click();
  await trace.click();
  await expect(page).toHaveURL(/\/traces\/[0-9a-f]{32}/);
});
