import { expect, test, type Page } from "@playwright/test";

// Kept under test-results/ so they are found beside traces of failed runs (and git-ignored).
const SCREENSHOTS = "test-results/screenshots";

/** A taller window for a screenshot of a whole page, so sticky bars sit where they would on screen. */
async function screenshotTall(page: Page, path: string, height = 1700) {
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: `${SCREENSHOTS}/${path}` });
  await page.setViewportSize(viewport);
}

async function createAgent(page: Page, name: string) {
  // The search box renders once the list is interactive (it reads the URL on the client).
  await expect(page.getByRole("searchbox", { name: "Search agents by name" })).toBeVisible();
  await page.keyboard.press("c");
  const dialog = page.getByRole("dialog", { name: "New agent" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await dialog.getByLabel("Name").fill(name);
  await expect(dialog.getByLabel(/Slug/)).toHaveAttribute("placeholder", /^[a-z0-9-]+$/);
  await dialog.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}\/variants\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("current-version")).toHaveText("v1");
}

test.describe.configure({ timeout: 120_000 });

test("agents: create, edit in the form and JSON views, fix a validation error, commit twice, keep a draft across a reload", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const name = `Support triage ${stamp}`;
  const unsaved = page.getByTestId("unsaved-indicator");
  const status = page.getByTestId("validation-status");
  const version = page.getByTestId("current-version");

  // The list, reached from the sidebar; `c` opens the create dialog.
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  await createAgent(page, `Release notes writer ${stamp}`);
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  await createAgent(page, name);
  const editorUrl = page.url();

  // Form: instructions and model (the model picker is fed by the harness catalog).
  const instructions = page.getByLabel("AGENTS.md");
  await instructions.click();
  await instructions.fill(
    "You are a support triage agent.\n\n- Classify each ticket as bug, question or request.\n- Answer in one short sentence.",
  );
  await page.getByLabel("Provider").selectOption("anthropic");
  const model = page.getByRole("combobox", { name: "Model", exact: true });
  // The comparable tier of gpt-5-mini (closest in price), not the priciest model.
  await expect(model).toHaveValue("claude-haiku-4-5");
  await model.selectOption("claude-sonnet-4-5");
  await expect(page.getByTestId("model-facts")).toContainText("200K tokens");
  await expect(page.getByTestId("model-facts")).toContainText("$3 / 1M tokens");
  await expect(unsaved).toBeVisible();
  await expect(status).toContainText("Valid");
  await screenshotTall(page, "editor-form.png");

  // JSON view: the same draft, the whole template.
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await expect(page).toHaveURL(/\?view=json$/);
  const json = page.getByLabel("Agent template (JSON)");
  const text = await json.inputValue();
  const template = JSON.parse(text);
  expect(template.llm).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5" });
  expect(template.instructions.agents_md).toContain("support triage agent");
  expect(Object.keys(template)[0]).toBe("instructions");
  await page.screenshot({ path: `${SCREENSHOTS}/editor-json.png` });

  // Wide screens: the chat pane sits beside the editor.
  await page.setViewportSize({ width: 1920, height: 1000 });
  await page.getByRole("button", { name: "Show chat panel" }).click();
  await expect(page.getByRole("complementary", { name: "Chat" })).toContainText("Chat with the draft");
  await page.screenshot({ path: `${SCREENSHOTS}/editor-json-1920.png` });
  await page.getByRole("button", { name: "Hide chat panel" }).click();
  await page.setViewportSize({ width: 1280, height: 800 });

  // A syntax error is reported and does not clobber the form.
  await json.fill(text.slice(0, -2));
  await expect(page.getByText(/^Syntax error/).first()).toBeVisible();
  // The badge and the problems panel give one verdict: the syntax error is the one problem.
  await expect(status).toContainText("1 problem");
  await expect(page.getByTestId("problems-list")).toContainText("Syntax error");
  await expect(page.getByRole("button", { name: /^Commit/ })).toBeDisabled();
  await page.getByRole("link", { name: "Form" }).click();
  await expect(page.getByText("The JSON view has a syntax error")).toBeVisible();
  await expect(instructions).toHaveValue(/support triage agent/);
  await expect(instructions).toBeDisabled();

  // An invalid value: flagged live, in the JSON view's problem list and beside the form field.
  await page.getByRole("link", { name: "Open JSON view" }).first().click();
  await json.fill(text.replace('"default": "allow_reads"', '"default": "sometimes"'));
  const problems = page.getByTestId("problems-list");
  await expect(problems).toContainText("runner.permissions.default");
  await expect(problems).toContainText('must be one of allow, ask, deny, allow_reads; got "sometimes"');
  await expect(status).toContainText("1 problem");
  await page.screenshot({ path: `${SCREENSHOTS}/editor-validation-error-json.png` });
  await page.getByRole("link", { name: "Form" }).click();
  const execution = page.locator("#section-execution");
  await expect(execution.getByTestId("field-issues")).toContainText('got "sometimes"');
  await execution.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/editor-validation-error.png` });

  // Commit is blocked while there is a problem (the shortcut too); the bar says why and links to the panel.
  const commitButton = page.getByRole("button", { name: /^Commit/ });
  await expect(commitButton).toBeDisabled();
  await expect(page.getByTestId("commit-status")).toContainText("Fix 1 problem to commit");
  await page.getByLabel("Commit message").fill("Triage on Claude Sonnet");
  await page.keyboard.press("Control+Enter");
  await expect(version).toHaveText("v1");
  await page.getByTestId("show-problems").click();
  await expect(page).toHaveURL(/\?view=json#template-problems$/);
  await expect(problems).toBeInViewport();
  await expect(problems).toContainText("runner.permissions.default");
  await page.getByRole("link", { name: "Form" }).click();

  // Fixed in the form, then committed: version 2, the draft is gone.
  await execution.getByRole("radio", { name: /Ask first/ }).check();
  await expect(execution.getByTestId("field-issues")).toHaveCount(0);
  await expect(status).toContainText("Valid");
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(version).toHaveText("v2");
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");
  await expect(unsaved).toHaveCount(0);
  await expect(page.getByLabel("Commit message")).toHaveValue("");
  await expect(page.getByText("Triage on Claude Sonnet").first()).toBeVisible();

  // Edit and commit again, with the keyboard from inside the text area.
  await instructions.fill(`${await instructions.inputValue()}\n- Escalate refund requests.`);
  await page.getByLabel("Commit message").fill("Escalate refunds");
  await instructions.focus();
  await page.keyboard.press("Control+s");
  await expect(version).toHaveText("v3");
  await expect(unsaved).toHaveCount(0);

  // A draft survives a reload; the browser asks before the page unloads.
  await instructions.click();
  await instructions.press("End");
  await instructions.pressSequentially("\n- Draft: ask for the order number.");
  await expect(unsaved).toBeVisible();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(dialogs).toContain("beforeunload");
  await expect(page.getByText("Restored your unsaved draft")).toBeVisible();
  await expect(instructions).toHaveValue(/Draft: ask for the order number/);
  await expect(unsaved).toBeVisible();
  await expect(version).toHaveText("v3");
  await page.screenshot({ path: `${SCREENSHOTS}/editor-draft-restored.png` });

  // Leaving through a link asks first.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  const leave = page.getByRole("alertdialog", { name: "Leave without committing?" });
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: "Stay" }).click();
  await expect(page).toHaveURL(editorUrl);

  // Discarding asks too, then goes back to the committed version.
  await page.getByRole("button", { name: "Discard", exact: true }).click();
  await page
    .getByRole("alertdialog", { name: "Discard your changes?" })
    .getByRole("button", { name: "Discard changes" })
    .click();
  await expect(unsaved).toHaveCount(0);
  await expect(instructions).not.toHaveValue(/Draft:/);

  // Rename in place from the header.
  const renamed = `${name} (EU)`;
  await page.getByRole("button", { name: "Rename agent" }).click();
  await page.getByLabel("Agent name").fill(renamed);
  await page.getByLabel("Agent name").press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();

  // What environments run shows in the list: deploy v3 to staging (the Deploy tab's job; here via tRPC).
  const variantId = editorUrl.split("/variants/")[1];
  const input = encodeURIComponent(JSON.stringify({ json: { variantId, limit: 1 } }));
  const latest = (await (await page.request.get(`/api/trpc/agents.history?input=${input}`)).json()).result.data.json
    .items[0];
  expect(latest.version).toBe("3");
  const deploy = await page.request.post("/api/trpc/agents.deploy", {
    data: { json: { revisionId: latest.id, environment: "staging" } },
  });
  expect(deploy.ok()).toBe(true);

  // The commits and the deploy made through the playground are in the outbox, like the API's.
  const apiKey = (
    await (await page.request.post("/api/trpc/apiKeys.create", { data: { json: { name: `events ${stamp}` } } })).json()
  ).result.data.json;
  const events = await page.request.post("/api/events/query", {
    headers: { authorization: `ApiKey ${apiKey.key}` },
    data: {
      event_types: ["workflows.revisions.committed", "environments.revisions.committed"],
      windowing: { limit: 1000 },
    },
  });
  expect(events.ok()).toBe(true);
  const committed = (await events.json()).events as {
    event_type: string;
    attributes: { references: Record<string, { id: string }> };
  }[];
  const ours = committed.filter(
    (e) =>
      e.event_type === "workflows.revisions.committed" && e.attributes.references.workflow_variant?.id === variantId,
  );
  expect(ours.length).toBeGreaterThanOrEqual(3);
  expect(
    committed.some(
      (e) => e.event_type === "environments.revisions.committed" && JSON.stringify(e.attributes).includes(latest.id),
    ),
  ).toBe(true);

  // The list: latest version, what each environment runs, last change.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  const row = page.getByTestId("agent-row").filter({ hasText: renamed });
  await expect(row).toContainText("v3");
  await expect(row.getByLabel("Staging runs v3 (latest)")).toBeVisible();
  await expect(row.getByLabel("Not deployed to Production")).toBeVisible();
  await expect(row).toContainText("Escalate refunds");
  await expect(page.getByTestId("agent-row").filter({ hasText: stamp })).toHaveCount(2);
  await page.screenshot({ path: `${SCREENSHOTS}/agents-list.png` });

  // `/` searches; the query is in the URL and survives a reload.
  await page.keyboard.press("/");
  const search = page.getByRole("searchbox", { name: "Search agents by name" });
  await expect(search).toBeFocused();
  await page.keyboard.type(`triage ${stamp}`);
  await expect(page).toHaveURL(new RegExp(`\\?q=triage\\+${stamp}$`));
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
  await page.reload();
  await expect(search).toHaveValue(`triage ${stamp}`);
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
  await expect(page.getByTestId("agent-row")).toContainText(renamed);

  // Archive the other agent: it leaves the list, and comes back with "Include archived" (in the URL).
  await search.fill(stamp);
  await expect(page.getByTestId("agent-row")).toHaveCount(2);
  await page.getByRole("link", { name: `Release notes writer ${stamp}` }).click();
  await page.getByRole("button", { name: "Archive" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Archive agent" }).click();
  await expect(page.getByRole("button", { name: "Unarchive" })).toBeVisible();
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("searchbox", { name: "Search agents by name" })).toBeVisible();
  await search.fill(stamp);
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
  await page.getByLabel("Include archived").check();
  await expect(page).toHaveURL(/archived=1/);
  await expect(page.getByTestId("agent-row")).toHaveCount(2);
  await expect(page.getByTestId("agent-row").filter({ hasText: "Release notes writer" })).toContainText("Archived");
});
