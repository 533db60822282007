import { expect, test } from "@playwright/test";
import { scriptModel } from "./model-script";
import { modelPort } from "./ports";
import { actUntilVisible } from "./act-until-visible";

const SCREENSHOTS = "test-results/screenshots";

test.describe.configure({ timeout: 90_000 });

test("connections: add a provider key (masked), test it, see the failure in words, and the editor's model picker knows it is connected", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connections" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();

  await page.getByRole("button", { name: "Add connection" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add connection" });
  await dialog.getByLabel("Name").fill("Work OpenAI");
  await dialog.getByLabel("Provider", { exact: true }).selectOption("openai");
  await dialog.getByLabel("Base URL (optional)").fill(`http://127.0.0.1:${modelPort()}/v1`);
  await dialog.getByLabel("API key").fill("sk-e2e-abcd9876");
  await dialog.getByRole("button", { name: "Add connection" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("connection-row").filter({ hasText: "Work OpenAI" });
  await expect(row).toContainText("…9876");
  expect(await page.content()).not.toContain("sk-e2e-abcd9876");

  await scriptModel({ kind: "reply", text: "OK" });
  await row.getByRole("button", { name: "Test connection" }).click();
  await expect(row.getByTestId("connection-test-result")).toContainText(/Works: gpt-5-nano answered in \d+ ms/);

  await scriptModel({ kind: "status", status: 401, message: "invalid key" });
  await row.getByRole("button", { name: "Test connection" }).click();
  await expect(row.getByTestId("connection-test-result")).toContainText(
    "rejected by the provider: 401. Check the key.",
  );
  await page.screenshot({ path: `${SCREENSHOTS}/connections.png` });

  // Editing keeps the stored key when the field stays blank.
  await row.getByRole("button", { name: "Edit Work OpenAI" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Work OpenAI" });
  await edit.getByLabel("Name").fill("Team OpenAI");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("connection-row").filter({ hasText: "Team OpenAI" })).toContainText("…9876");

  // The editor's model picker marks connected providers and says which credential a run uses.
  await page.goto("/agents");
  await expect(page.getByRole("searchbox", { name: "Search agents by name" })).toBeVisible();
  const create = page.getByRole("dialog", { name: "New agent" });
  // The shortcut acts once the page has hydrated.
  await actUntilVisible(() => page.keyboard.press("c"), create);
  await create.getByLabel("Name").fill(`Connected ${Date.now().toString(36)}`);
  await create.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}\/variants\/[0-9a-f-]{36}$/);
  const provider = page.getByLabel("Provider", { exact: true });
  await expect(provider.locator("option", { hasText: "OpenAI · connected" })).toHaveCount(1);
  await expect(page.getByTestId("provider-connection")).toHaveText("Runs with the connection “Team OpenAI”.");
  await provider.selectOption("mistral");
  await expect(page.getByTestId("provider-connection")).toContainText("No connection yet");

  await page.goto("/connections");
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByTestId("connection-row")).toHaveCount(1);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SCREENSHOTS}/connections-390.png` });
});

test("secrets: add a plain secret (readable only while typed), rotate it, delete it; never a model connection", async ({
  page,
}) => {
  await page.goto("/connections");
  const section = page.getByRole("region", { name: "Secrets" });
  await section.getByRole("button", { name: "Add secret" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add secret" });
  await dialog.getByLabel("Name").fill("Linear token");
  const value = dialog.getByLabel("Value");
  await value.fill("lin_api_e2e_9f3b7a51");
  await expect(value).toHaveAttribute("type", "text");
  await dialog.getByLabel("Name").focus();
  await expect(value).toHaveAttribute("type", "password");
  await dialog.getByRole("button", { name: "Add secret" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("secret-row").filter({ hasText: "Linear token" });
  await expect(row).toContainText("…7a51");
  await expect(row).toContainText("linear-token");
  await expect(page.getByTestId("connection-row").filter({ hasText: "Linear token" })).toHaveCount(0);
  expect(await page.content()).not.toContain("lin_api_e2e_9f3b7a51");

  await row.getByRole("button", { name: "Rotate Linear token" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate Linear token" });
  await rotate.getByLabel("New value").fill("lin_api_e2e_rotated_c0de");
  await rotate.getByRole("button", { name: "Rotate" }).click();
  await expect(rotate).toBeHidden();
  await expect(row).toContainText("…c0de");
  expect(await page.content()).not.toContain("lin_api_e2e_rotated_c0de");
  await page.screenshot({ path: `${SCREENSHOTS}/connections-secrets.png` });

  await row.getByRole("button", { name: "Delete Linear token" }).click();
  await expect(page.getByTestId("secret-row")).toHaveCount(0);
  await expect(section.getByText("No secrets yet")).toBeVisible();
});
