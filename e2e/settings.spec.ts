import { expect, test } from "@playwright/test";

// Kept under test-results/ so they are found beside traces of failed runs (and git-ignored).
const SCREENSHOTS = "test-results/screenshots";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("the home page explains the playground and links to Settings and the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Build, version and ship LLM agents");
  await expect(page.getByTestId("project-name")).toHaveText("Default project");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(page.locator('main a[href="/api/openapi.json"]').first()).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/home.png`, fullPage: true });
});

test("creates an API key, shows its secret once, lists it and revokes it", async ({ page, request }) => {
  const name = `e2e key ${Date.now()}`;

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const rows = page.getByTestId("api-key-row");
  // The key created on the server's first start.
  await expect(rows.filter({ hasText: "default" })).toHaveCount(1);
  await page.screenshot({ path: `${SCREENSHOTS}/settings.png`, fullPage: true });

  // Create
  await page.getByRole("button", { name: "Create key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create API key" });
  await expect(form.getByLabel("Name")).toBeFocused();
  await form.getByLabel("Name").fill(name);
  await page.screenshot({ path: `${SCREENSHOTS}/settings-create-dialog.png` });
  await form.getByRole("button", { name: "Create key" }).click();

  // The secret, once
  const created = page.getByRole("dialog", { name: "API key created" });
  const secretField = created.getByTestId("new-api-key-secret");
  await expect(secretField).toHaveValue(/^sk_/);
  const secret = await secretField.inputValue();
  await expect(created).toContainText("It will not be shown again");
  const copy = created.getByRole("button", { name: "Copy API key" });
  await expect(copy).toBeVisible();
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.screenshot({ path: `${SCREENSHOTS}/settings-new-key.png` });
  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toBeHidden();

  // Listed, active, and the secret is gone from the page
  const row = rows.filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Active");
  await expect(row).toContainText(secret.slice(0, 11));
  expect(await page.content()).not.toContain(secret);
  const authorization = { authorization: `ApiKey ${secret}` };
  expect((await request.get("/api/keys", { headers: authorization })).status()).toBe(200);

  // Revoke, with confirmation
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke API key?" });
  await expect(confirm).toContainText(name);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: `${SCREENSHOTS}/settings-revoke-dialog.png` });
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "API key revoked" })).toBeVisible();
  expect((await request.get("/api/keys", { headers: authorization })).status()).toBe(401);
  await page.screenshot({ path: `${SCREENSHOTS}/settings-revoked.png`, fullPage: true });
});

test("sets the project's own price for a custom model, lists it per usage kind and removes it", async ({ page }) => {
  const model = `llama-${Date.now().toString(36)}`;
  await page.goto("/settings");
  const section = page.getByTestId("model-prices");
  const form = page.getByRole("form", { name: "Set a model price" });
  await form.getByLabel("Provider").fill("custom");
  await form.getByLabel("Model").fill(model);
  await form.getByLabel("Input $/M", { exact: true }).fill("0.2");
  await form.getByLabel("Output $/M", { exact: true }).fill("0.6");
  await form.getByLabel("Cached input $/M", { exact: true }).fill("0.05");
  await form.getByRole("button", { name: "Set price" }).click();
  const row = section.getByRole("listitem").filter({ hasText: `custom/${model}` });
  await expect(row).toContainText("Input $0.2");
  await expect(row).toContainText("Cached input $0.05");
  await row.getByRole("button", { name: "Remove" }).click();
  await expect(row).toHaveCount(0);
});
