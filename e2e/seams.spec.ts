import { expect, test, type Locator, type Page } from "@playwright/test";
import { mutate, query } from "./trpc";
import { hydrated } from "./hydrated";

/** True when nothing inside the locator's table scroll box is cut off sideways. */
async function fitsSideways(table: Locator): Promise<boolean> {
  return table.evaluate((el) => {
    const box = el.closest("[data-table-scroll]") ?? el;
    return box.scrollWidth <= box.clientWidth + 1;
  });
}

async function agentWithTwoRevisions(page: Page, name: string) {
  const created = await mutate(page.request, "agents.create", { name });
  const template = created.revision.data.parameters.agent;
  const second = await mutate(page.request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: "Answer in one sentence." } },
    message: "Shorter answers",
  });
  return { created, second, slug: created.agent.slug as string };
}

test("a monitor's agent, environment, revision, key and model come from pickers by name; a slug is stored as the agent's id; an unknown one is refused", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `Picked ${Date.now()}`;
  const { created, slug } = await agentWithTwoRevisions(page, name);
  // The API: a slug names the agent (stored as the id its runs carry, shown by name); nothing unknown is taken.
  const bySlug = await mutate(page.request, "monitors.create", {
    monitor: {
      name: `by slug ${slug}`,
      metric: { name: "error_rate" },
      scope: { kind: "agent", value: slug },
      window_seconds: 300,
      operator: "above",
      threshold: 0.2,
    },
  });
  expect(bySlug.scope).toEqual({ kind: "agent", value: created.agent.id, label: name });
  const unknown = await page.request.post("/api/trpc/monitors.create", {
    data: {
      json: {
        monitor: {
          name: "nobody",
          metric: { name: "error_rate" },
          scope: { kind: "agent", value: "no-such-agent" },
          window_seconds: 300,
          operator: "above",
          threshold: 0.2,
        },
      },
    },
  });
  expect(unknown.status()).toBe(400);
  expect(JSON.stringify(await unknown.json())).toContain("names no agent");

  await page.goto("/monitors?new=1");
  const form = page.getByRole("form", { name: "New monitor" });
  const scope = form.getByRole("combobox", { name: /^Scope/ });
  await hydrated(scope);
  await scope.selectOption("agent");
  await form.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: name });
  await form.getByRole("spinbutton", { name: /^Threshold/ }).fill("20");
  await form.getByLabel("Name", { exact: true }).fill(`picked ${slug}`);
  // The GitHub channel the docs list is offered; its token is asked for once a repository is given.
  await expect(form.getByLabel("GitHub repository (owner/name)")).toBeVisible();
  await form.getByRole("button", { name: "Create monitor" }).click();
  await expect(form).toBeHidden();
  const monitors = await query<{ name: string; scope: { value?: string; label?: string } }[]>(
    page.request,
    "monitors.list",
  );
  expect(monitors.find((m) => m.name === `picked ${slug}`)?.scope).toEqual({
    kind: "agent",
    value: created.agent.id,
    label: name,
  });
  // Listed by the agent's name, never its id.
  await expect(page.getByText(`agent ${name}`).first()).toBeVisible();
  await expect(page.getByText(created.agent.id)).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`a canary is shown wherever the environment's revision is, and ends only once confirmed with a reason (${width} px)`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    const name = `Split ${width} ${Date.now()}`;
    const { created, second } = await agentWithTwoRevisions(page, name);
    await mutate(page.request, "agents.deploy", { revisionId: created.revision.id, environment: "staging" });
    await mutate(page.request, "canaries.start", {
      revisionId: second.revision.id,
      environment: "staging",
      weight: 30,
    });
    const split = "v1 70% · v2 30% canary";

    // The agent's Deploy tab.
    await page.goto(`/agents/${created.agent.id}/variants/${created.variant.id}/deploy?revision=${second.revision.id}`);
    const card = page.getByTestId("environment-card-staging");
    await expect(card.getByTestId("canary-split")).toHaveText(split);
    // The next deploy dialog says a canary runs, and what a plain deploy would do to it.
    await card.getByRole("button", { name: "Deploy v2 to staging" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Deploy v2 to staging?" });
    await expect(dialog.getByTestId("deploy-summary-canary")).toContainText(split);
    await expect(dialog).toContainText("ends the canary of v2 (30%)");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The Environments overview's matrix.
    await page.goto("/environments");
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row.getByTestId("canary-split")).toHaveText(split);

    // The environment: Running now, the canary card, and the history naming the start.
    await page.goto("/environments/staging");
    const running = page.getByTestId("running-row").filter({ hasText: name });
    await expect(running.getByTestId("canary-split")).toHaveText(split);
    const canary = page.getByTestId("canary-card").filter({ hasText: `${created.agent.slug}.revision` });
    const comparison = canary.getByRole("table", { name: "Canary comparison" });
    await expect(comparison).toContainText("(candidate)");
    // On a phone both tables stack into cards: nothing hides sideways.
    if (width < 500) {
      expect(await fitsSideways(comparison)).toBe(true);
      expect(await fitsSideways(page.getByRole("table", { name: "Running in staging" }))).toBe(true);
    }
    const started = page.getByTestId("deploy-log-item").filter({ hasText: `Canary ${name} v2 at 30%` });
    await expect(started.getByTestId("canary-action")).toHaveText("Canary started");
    await expect(started).not.toContainText("Redeploy: nothing changed");

    // Roll back asks first, and needs a reason, which the history keeps.
    await canary.getByRole("button", { name: "Roll back" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Roll back v2?" });
    await expect(confirm).toContainText("v1 takes all of");
    const go = confirm.getByRole("button", { name: "Roll back v2" });
    await expect(go).toBeDisabled();
    await confirm.getByLabel("Reason (kept in the history)").fill("errors went up");
    await go.click();
    await expect(confirm).toBeHidden();
    await expect(canary).toHaveCount(0);
    const rolledBack = page
      .getByTestId("deploy-log-item")
      .filter({ hasText: `Roll back canary ${name} v2: errors went up` });
    await expect(rolledBack.getByTestId("canary-action")).toHaveText("Canary rolled back");
    await expect(rolledBack).toContainText("all the traffic goes to the deployed revision again");
    await expect(running.getByTestId("canary-split")).toHaveCount(0);
    await page.screenshot({ path: `test-results/screenshots/seams-canary-${width}.png`, fullPage: true });
  });
}

test("Settings: redaction turned on and its rules edited in the page; the audit log names people and exports", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Redaction" });
  const rules = section.getByRole("form", { name: "Redaction rules" });
  await rules.getByLabel("Email addresses").check();
  await rules.getByRole("button", { name: "Add a pattern" }).click();
  // The new row is the last: another spec may have left a pattern of its own.
  await rules.getByLabel("Name", { exact: true }).last().fill("ticket");
  await rules.getByLabel("Pattern", { exact: true }).last().fill("TKT-[0-9]{4}");
  await rules.getByRole("button", { name: "Save redaction rules" }).click();
  await expect(section.getByTestId("redaction-rules")).toContainText("email");
  await expect(section.getByTestId("redaction-rules")).toContainText("ticket");
  await section.getByLabel("Try it").fill("ada@example.com TKT-1234");
  await section.getByRole("button", { name: "Show what is stored" }).click();
  await expect(section.getByTestId("redaction-result")).not.toContainText("ada@example.com");
  await expect(section.getByTestId("redaction-result")).not.toContainText("TKT-1234");

  const audit = page.getByRole("region", { name: "Audit log" });
  await audit.getByLabel("Filter by action").fill("redaction_settings.updated");
  const entry = audit.getByTestId("audit-entry").first();
  const me = await query<{ user: { email: string; name?: string } }>(page.request, "account.me").catch(() => undefined);
  if (me) await expect(entry).toContainText(me.user.name || me.user.email);
  // Never an 8-character fragment of an id for the person.
  await expect(entry.getByText(/^[0-9a-f]{8}$/)).toHaveCount(0);
  const download = page.waitForEvent("download");
  await audit.getByRole("button", { name: "Export (JSON lines)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("audit-log.jsonl");
  const lines = (await (await file.createReadStream()).toArray()).join("").trim().split("\n");
  expect(lines.map((line) => JSON.parse(line).action)).toContain("redaction_settings.updated");

  // Off again: the other specs share the project.
  await rules.getByLabel("Email addresses").uncheck();
  await rules
    .getByRole("button", { name: /Remove pattern/ })
    .last()
    .click();
  await rules.getByRole("button", { name: "Save redaction rules" }).click();
  await expect(section.getByTestId("redaction-rules")).toHaveText("Off: nothing is redacted.");
});

test("Budgets: a key budget asks for its key in the form, a $0.001 limit reads $0.001; allowlist patterns read apart", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const key = await mutate<{ id: string; prefix: string }>(page.request, "apiKeys.create", { name: `tiny ${stamp}` });
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Add a budget" });
  await hydrated(form.getByLabel("Applies to"));
  await form.getByLabel("Name").fill(`tiny ${stamp}`);
  await form.getByLabel("Applies to").selectOption("api_key");
  await form.getByLabel("Limit (USD)").fill("0.001");
  await form.getByRole("button", { name: "Add budget" }).click();
  await expect(form).toContainText("Choose the API key this budget applies to.");
  const option = await form
    .getByLabel("API key")
    .locator("option")
    .filter({ hasText: `(${key.prefix}…)` })
    .textContent();
  await form.getByLabel("API key").selectOption({ label: option! });
  await form.getByRole("button", { name: "Add budget" }).click();
  const budget = page
    .getByTestId("budgets")
    .getByRole("listitem")
    .filter({ hasText: `tiny ${stamp}` });
  await expect(budget).toContainText("$0.001 per calendar month");
  await expect(budget).toContainText("$0.00 of $0.001");

  const lists = page.getByTestId("allowlists");
  const listForm = page.getByRole("form", { name: "Add a model allowlist" });
  const forOption = await listForm
    .getByLabel("For")
    .locator("option")
    .filter({ hasText: `(${key.prefix}…)` })
    .textContent();
  await listForm.getByLabel("For").selectOption({ label: forOption! });
  await listForm.getByLabel("Models (comma or space separated)").fill("anthropic/* openai/gpt-5-mini");
  await listForm.getByRole("button", { name: "Add allowlist" }).click();
  await expect(lists.getByRole("listitem").filter({ hasText: key.prefix })).toContainText(
    "anthropic/*,openai/gpt-5-mini",
  );

  // Removed again: the key is this spec's own.
  for (const list of [page.getByTestId("budgets"), lists]) {
    const item = list.getByRole("listitem").filter({ hasText: key.prefix });
    await item.getByRole("button", { name: /Remove/ }).click();
    await expect(item).toHaveCount(0);
  }
});
