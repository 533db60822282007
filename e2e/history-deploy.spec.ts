import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { OWNER } from "./owner";
import { mutate } from "./trpc";

// Kept under test-results/ so they are found beside traces of failed runs (and git-ignored).
const SCREENSHOTS = "test-results/screenshots";

const INSTRUCTIONS_V2 =
  "You are a precise release-notes writer.\n\n- Answer in bullet points.\n- Name every breaking change first.";

/** An agent with two revisions, v1 already running in staging (so the deploy confirmation has a real diff). */
async function seedAgent(request: APIRequestContext) {
  const created = await mutate(request, "agents.create", { name: `Release notes ${Date.now()}` });
  const template = created.revision.data.parameters.agent;
  const second = await mutate(request, "agents.commit", {
    variantId: created.variant.id,
    template: {
      ...template,
      instructions: { agents_md: INSTRUCTIONS_V2 },
      llm: { ...template.llm, model: "gpt-5" },
      tools: template.tools.filter((tool: { name: string }) => tool.name !== "write"),
    },
    message: "Sharper instructions, bigger model",
  });
  await mutate(request, "agents.deploy", {
    revisionId: created.revision.id,
    environment: "staging",
    message: "First staging deploy",
  });
  return {
    agentId: created.agent.id as string,
    agentName: created.agent.name as string,
    variantId: created.variant.id as string,
    v1: created.revision.id as string,
    v2: second.revision.id as string,
  };
}

const rowOf = (page: Page, version: number) => page.locator(`[data-testid="revision-row"][data-version="${version}"]`);

test("history, diff, restore, fork and deploy to staging with a confirmation diff", async ({ page, request }) => {
  test.setTimeout(90_000);
  const agent = await seedAgent(request);
  const base = `/agents/${agent.agentId}/variants/${agent.variantId}`;

  // History: newest first, with who/when, the latest marker and where each revision runs
  await page.goto(`${base}/history`);
  await expect(page.getByRole("heading", { name: "History" })).toBeVisible();
  await expect(page.getByTestId("revision-row")).toHaveCount(2);
  await expect(page.getByTestId("revision-row").first()).toHaveAttribute("data-version", "2");
  await expect(rowOf(page, 2)).toContainText("Sharper instructions, bigger model");
  await expect(rowOf(page, 2)).toContainText("Latest");
  await expect(rowOf(page, 1)).toContainText("staging");
  await expect(rowOf(page, 1)).toContainText(OWNER.name);
  await expect(rowOf(page, 1).locator("time")).toHaveAttribute("title", /GMT/);
  await page.screenshot({ path: `${SCREENSHOTS}/history.png`, fullPage: true });

  // Select both with the keyboard (j moves, x selects) and diff them with d
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  await expect(page.getByRole("link", { name: /Compare v1 → v2/ })).toBeVisible();
  await page.keyboard.press("d");
  await expect(page).toHaveURL(new RegExp(`/diff\\?from=${agent.v1}&to=${agent.v2}$`));

  // Diff: changed lines highlighted on both sides, with the removed tool and the inline change
  await expect(page.getByRole("heading", { name: "Compare revisions" })).toBeVisible();
  const diff = page.getByRole("table", { name: "Changes from v1 to v2" });
  await expect(diff).toBeVisible();
  await expect(diff.locator('[data-kind="changed"]').first()).toBeVisible();
  await expect(diff.locator('[data-kind="changed"]').filter({ hasText: '"model": "gpt-5"' })).toHaveCount(1);
  await expect(diff.locator('[data-kind="removed"]').filter({ hasText: '"write"' })).toHaveCount(1);
  await expect(diff.locator('[data-kind="changed"] mark').first()).toBeVisible();
  await expect(page.getByTestId("diff-fold").first()).toContainText(/Show \d+ unchanged lines/);
  await page.screenshot({ path: `${SCREENSHOTS}/diff.png`, fullPage: true });

  // Swap keeps the comparison shareable in the URL
  await page.getByRole("button", { name: "Swap base and compared revisions" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${agent.v2}&to=${agent.v1}$`));
  await expect(page.getByTestId("diff-side-version").first()).toHaveText("v2");
  await expect(
    page
      .getByRole("table", { name: "Changes from v2 to v1" })
      .locator('[data-kind="added"]')
      .filter({ hasText: '"write"' }),
  ).toHaveCount(1);

  // Wide screens use the width
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SCREENSHOTS}/diff-1920.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A revision, read-only
  await page.goto(`${base}/revisions/${agent.v1}`);
  await expect(page.getByRole("heading", { name: /v1/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Template of v1" })).toContainText('"agents_md"');
  await page.screenshot({ path: `${SCREENSHOTS}/revision.png`, fullPage: true });

  // Restore v1 from the history: confirmation, then v3 appears on top
  await page.goto(`${base}/history`);
  await rowOf(page, 1).hover();
  await rowOf(page, 1).getByRole("button", { name: "Restore v1" }).click();
  const restore = page.getByRole("alertdialog", { name: "Restore v1?" });
  await expect(restore).toContainText("v3");
  await restore.getByRole("button", { name: "Restore as v3" }).click();
  await expect(restore).toBeHidden();
  await expect(page.getByTestId("revision-row").first()).toHaveAttribute("data-version", "3");
  await expect(rowOf(page, 3)).toContainText("Restore v1");
  await expect(page.getByRole("status").filter({ hasText: "Restored v1 as v3" })).toBeVisible();

  // Fork a variant from v2 and land on its editor
  await rowOf(page, 2).hover();
  await rowOf(page, 2).getByRole("button", { name: "Fork a variant from v2" }).click();
  const fork = page.getByRole("dialog", { name: "Fork a variant from v2" });
  await expect(fork.getByLabel("Name")).toBeFocused();
  await fork.getByLabel("Name").fill("Concise answers");
  await expect(fork.getByLabel("Slug")).toHaveValue("concise-answers");
  await fork.getByRole("button", { name: "Fork and open" }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${agent.agentId}/variants/(?!${agent.variantId})[0-9a-f-]{36}$`));

  // Deploy v2 to staging: the confirmation shows the diff against v1, which staging runs now
  await page.goto(`${base}/deploy?revision=${agent.v2}`);
  const staging = page.getByTestId("environment-card-staging");
  await expect(staging.getByTestId("running-version")).toHaveText("v1");
  await expect(page.getByTestId("environment-card-production")).toContainText("never been deployed");
  await staging.getByRole("button", { name: "Deploy v2 to staging" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Deploy v2 to staging?" });
  await expect(confirm.getByTestId("deploy-summary")).toContainText("runs v1");
  const confirmDiff = confirm.getByRole("table", { name: "Changes in staging: v1 to v2" });
  await expect(confirmDiff.locator('[data-kind="changed"]').filter({ hasText: '"model"' })).toHaveCount(1);
  await confirm.getByLabel(/Message/).fill("Ship the sharper instructions");
  await page.screenshot({ path: `${SCREENSHOTS}/deploy-confirm.png` });
  await confirm.getByRole("button", { name: "Deploy v2 to staging" }).click();
  await expect(confirm).toBeHidden();
  await expect(staging.getByTestId("running-version")).toHaveText("v2");
  await expect(staging).toContainText("Ship the sharper instructions");
  await page.getByRole("button", { name: "Dismiss notification" }).click();
  await page.screenshot({ path: `${SCREENSHOTS}/deploy.png`, fullPage: true });

  // The environment views show the deployed version
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Environments" }).click();
  await expect(page).toHaveURL(/\/environments$/);
  const row = page.getByTestId("deployed-agent-row").filter({ hasText: agent.agentName });
  await expect(row).toHaveCount(1);
  await expect(row.locator("td").nth(1)).toContainText("v2");
  await expect(row.locator("td").nth(0)).toContainText("—");
  await page.screenshot({ path: `${SCREENSHOTS}/environments.png`, fullPage: true });

  await page.getByTestId("environment-summary-staging").click();
  await expect(page).toHaveURL(/\/environments\/staging$/);
  const running = page.getByTestId("running-row").filter({ hasText: agent.agentName });
  await expect(running).toContainText("v2");
  await expect(running).toContainText("Ship the sharper instructions");
  const latestDeploy = page.getByTestId("deploy-log-item").first();
  await expect(latestDeploy).toContainText("Ship the sharper instructions");
  await expect(latestDeploy).toContainText("v1");
  await expect(latestDeploy).toContainText("v2");
  await expect(latestDeploy.getByRole("link", { name: "View diff" })).toHaveAttribute(
    "href",
    new RegExp(`from=${agent.v1}&to=${agent.v2}`),
  );
  await page.screenshot({ path: `${SCREENSHOTS}/environment-staging.png`, fullPage: true });
});

test("unknown revisions and environments answer 404 with a designed page; a malformed link says so without a useless Retry", async ({
  page,
  request,
}) => {
  const agent = await seedAgent(request);
  const base = `/agents/${agent.agentId}/variants/${agent.variantId}`;
  const missing = await page.goto(`${base}/revisions/00000000-0000-7000-8000-000000000000`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "This agent or version does not exist" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to your agents" })).toBeVisible();

  await page.goto(`${base}/diff?from=not-an-id&to=${agent.v2}`);
  // (Next.js keeps an empty role=alert route announcer on every page, hence the text filters.)
  const alert = page.getByRole("alert").filter({ hasText: "Could not load the revisions to compare: not found" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("The address is incomplete or has a typo");
  await expect(alert).not.toContainText(/UUID|Request body/);
  await expect(alert.getByRole("button", { name: "Retry" })).toHaveCount(0);

  const nowhere = await page.goto("/environments/nowhere");
  expect(nowhere?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
});
