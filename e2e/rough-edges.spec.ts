import { expect, test, type Locator, type Page } from "@playwright/test";
import { mutate } from "./trpc";
import { actUntilVisible } from "./act-until-visible";

/** The rough edges a new user hit , each checked where a person meets it. */

const AGENTS_MD_V1 =
  "You are a support triage agent.\n\n- Classify each ticket as bug, question or request.\n- Answer in one short sentence.";
const AGENTS_MD_V2 =
  "You are a support triage agent.\n\n- Classify each ticket as bug, question or request.\n- Escalate refunds to a person.\n- Answer in one short sentence.";

async function seed(page: Page, name: string) {
  const created = await mutate(page.request, "agents.create", { name });
  const template = created.revision.data.parameters.agent;
  const v2 = await mutate(page.request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: AGENTS_MD_V1 } },
    message: "Triage instructions",
  });
  const v3 = await mutate(page.request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: AGENTS_MD_V2 } },
    message: "Escalate refunds",
  });
  return {
    agentId: created.agent.id as string,
    agentSlug: created.agent.slug as string,
    variantId: created.variant.id as string,
    v2: v2.revision.id as string,
    v3: v3.revision.id as string,
    base: `/agents/${created.agent.id}/variants/${created.variant.id}`,
  };
}

const overlaps = async (a: Locator, b: Locator) => {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
};

test("missing pages, agents, variants and revisions answer 404 with a page in plain words", async ({ page }) => {
  const agent = await seed(page, `Not found probe ${Date.now().toString(36)}`);
  const unknownId = "00000000-0000-7000-8000-000000000000";
  const cases: [string, string][] = [
    ["/no-such-page", "There is no page at this address"],
    ["/agents/not-a-uuid", "This agent or version does not exist"],
    [`/agents/${unknownId}`, "This agent or version does not exist"],
    [`/agents/${unknownId}/variants/${agent.variantId}/history`, "This agent or version does not exist"],
    [`/agents/${agent.agentId}/variants/${unknownId}`, "This agent or version does not exist"],
    [`/agents/${agent.agentId}/variants/not-a-uuid/diff`, "This agent or version does not exist"],
    [`${agent.base}/revisions/${unknownId}`, "This agent or version does not exist"],
  ];
  for (const [path, heading] of cases) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
    await expect(page.locator("body"), path).not.toContainText(/UUID|Request body|Retry|Try again/);
  }
  await page.screenshot({ path: test.info().outputPath("agent-not-found.png") });
  await page.getByRole("link", { name: "Go to your agents" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
});

test("the favicon is served and linked", async ({ page }) => {
  const icon = await page.request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  await page.goto("/agents");
  await expect(page.locator('head link[rel="icon"]').first()).toHaveAttribute("href", /icon\.svg/);
});

test("the diff shows an edited AGENTS.md line by line", async ({ page }) => {
  const agent = await seed(page, `Diff probe ${Date.now().toString(36)}`);
  await page.goto(`${agent.base}/diff?from=${agent.v2}&to=${agent.v3}`);
  const diff = page.getByRole("table", { name: "Changes from v2 to v3" });
  await expect(diff).toBeVisible();
  const changed = diff.locator('[data-testid="diff-row"]:not([data-kind="unchanged"])');
  await expect(changed).toHaveCount(1);
  await expect(changed).toHaveAttribute("data-kind", "added");
  await expect(changed).toContainText("- Escalate refunds to a person.");
  await expect(diff).not.toContainText("\\n");
  await page.getByRole("button", { name: "Expand all lines" }).click();
  await expect(diff).toContainText('"agents_md": """');
  await page.screenshot({ path: test.info().outputPath("diff-text-block.png"), fullPage: true });
});

test("forking shows the variant's name in the toast and the switcher; the toast leaves Commit and the variant picker clear; the history names versions", async ({
  page,
}) => {
  const agent = await seed(page, `Fork probe ${Date.now().toString(36)}`);
  await page.goto(`${agent.base}/history`);
  const row = page.locator('[data-testid="revision-row"][data-version="3"]');
  await row.getByRole("button", { name: "Fork a variant from v3" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork a variant from v3" });
  await dialog.getByLabel("Name").fill("Concise answers");
  await dialog.getByRole("button", { name: "Fork and open" }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${agent.agentId}/variants/(?!${agent.variantId})[0-9a-f-]{36}$`));

  const toast = page.getByTestId("toasts").getByRole("status").filter({ hasText: "Forked “Concise answers”" });
  await expect(toast).toBeVisible();
  // A toast stays while the pointer rests on it: kept for the overlap checks below, however slow the machine.
  await toast.hover();
  const switcher = page.getByRole("combobox", { name: "Variant" });
  // The fork carries the source's lineage up to v3 (as the reference's fork does): its head is v3.
  await expect(switcher.locator("option:checked")).toHaveText("Concise answers · v3");
  await expect(switcher.locator("option")).toContainText(["default · v3", "Concise answers · v3"]);
  await expect(page.getByTestId("current-version").locator("..")).toContainText("Escalate refunds");
  const commit = page.getByRole("button", { name: /^Commit/ });
  await expect(commit).toBeVisible();
  expect(await overlaps(toast, commit)).toBe(false);
  expect(await overlaps(toast, switcher)).toBe(false);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overlaps(toast, commit)).toBe(false);
  expect(await overlaps(toast, switcher)).toBe(false);
  await page.screenshot({ path: test.info().outputPath("fork-toast-390.png") });
});

test("a taken slug is refused in an agent's words with a free one; non-Latin names get readable slugs", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const taken = `taken-${stamp}`;
  await mutate(page.request, "agents.create", { name: `Taken ${stamp}`, slug: taken });
  await page.goto("/agents");
  const dialog = page.getByRole("dialog", { name: "New agent" });
  await actUntilVisible(
    () =>
      page
        .getByRole("button", { name: /New agent/ })
        .first()
        .click({ timeout: 5_000 }),
    dialog,
  );
  await dialog.getByLabel("Name").fill("Агент поддержки");
  await expect(dialog.getByLabel(/Slug/)).toHaveAttribute("placeholder", "agent-podderzhki");
  await dialog.getByLabel("Name").fill("客服助手");
  await expect(dialog.getByLabel(/Slug/)).toHaveAttribute("placeholder", "ke-fu-zhu-shou");
  await dialog.getByLabel(/Slug/).fill(taken);
  await dialog.getByRole("button", { name: "Create agent" }).click();
  await expect(dialog).toContainText(`Another agent has this slug; try "${taken}-2"`);
  await expect(dialog).not.toContainText(/workflow/i);
  await dialog.getByLabel(/Slug/).fill(`${taken}-2`);
  await dialog.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}\/variants\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "客服助手" })).toBeVisible();
});

test("history actions show for the selected row and on keyboard focus, not only on hover", async ({ page }) => {
  const agent = await seed(page, `History probe ${Date.now().toString(36)}`);
  await page.goto(`${agent.base}/history`);
  const actionsOf = (version: number) =>
    page.locator(`[data-testid="revision-row"][data-version="${version}"] [data-testid="revision-actions"]`);
  await page.mouse.move(0, 0);
  await expect(actionsOf(2)).toHaveCSS("opacity", "0");
  await page.getByRole("checkbox", { name: "Select v2 to compare" }).check();
  await page.mouse.move(0, 0);
  await expect(actionsOf(2)).toHaveCSS("opacity", "1");
  await expect(actionsOf(1)).toHaveCSS("opacity", "0");
  await page.getByRole("link", { name: /^v1:/ }).focus();
  await expect(actionsOf(1)).toHaveCSS("opacity", "1");
  // Without hover (a phone), every row shows them.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.keyboard.press("Escape");
  await expect(actionsOf(3)).toHaveCSS("opacity", "1");
  await expect(actionsOf(3).getByRole("button", { name: "Restore v3" })).toBeInViewport();
});

test("a long agent name does not push the list's columns off-screen", async ({ page }) => {
  const name = `An agent with a name so long that it would push every other column of the table off the screen ${Date.now().toString(36)}`;
  await mutate(page.request, "agents.create", { name });
  await page.goto(`/agents?q=${encodeURIComponent(name.slice(-30))}`);
  const table = page.getByRole("table", { name: "Agents" });
  await expect(table.getByTestId("agent-row")).toHaveCount(1);
  const viewport = page.viewportSize()!;
  for (const header of await table.locator("thead th").all()) {
    const box = (await header.boundingBox())!;
    expect(box.x + box.width, await header.innerText()).toBeLessThanOrEqual(viewport.width);
  }
  await expect(table.getByRole("link", { name })).toHaveAttribute("title", name);
});

test("environments say agents, count each kind, and the deploy message names the agent and version", async ({
  page,
}) => {
  const agent = await seed(page, `Environment probe ${Date.now().toString(36)}`);
  await mutate(page.request, "agents.deploy", { revisionId: agent.v3, environment: "development" });
  await page.goto("/environments");
  await expect(page.getByTestId("deployed-column")).toHaveText("Agent");
  await expect(page.getByTestId("environment-summary-development").getByTestId("deployed-summary")).toHaveText(
    /^agents? deployed$/,
  );
  await page.goto("/environments/development");
  await expect(page.getByTestId("deploy-log-item").first()).toContainText(`Deploy Environment probe`);
  await expect(page.getByTestId("deploy-log-item").first()).not.toContainText(agent.v3);
});
