import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { scriptModel } from "./model-script";
import { mutate } from "./trpc";

const SCREENSHOTS = "test-results/screenshots";

/**
 * Each control is set in Settings on API keys this spec creates (never on the project, which the
 * other specs share), then a turn with those keys shows it enforced, and each is removed again.
 */
test("Settings controls: a rate limit, an allowlist and a budget set in the page are enforced, an alias is listed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const model = `e2e-controls-${stamp}`;
  const newKey = async (name: string) =>
    mutate<{ id: string; key: string; prefix: string }>(page.request, "apiKeys.create", { name });
  const limited = await newKey(`limited ${stamp}`);
  const spender = await newKey(`spender ${stamp}`);
  // The scripted model stands behind a custom base URL, which has no list price: a budget counts
  // only what is priced, so this spec's model gets one ($1 per input token).
  const price = await mutate(page.request, "pricing.set", {
    provider: "openai",
    model,
    usd_per_million_tokens: { prompt: 1_000_000, completion: 0 },
  });

  await scriptModel({ kind: "reply", text: "Cheap answer.", usage: { input: 0, output: 0 } });
  await page.goto("/settings");
  const keyOption = (key: { prefix: string }) =>
    new RegExp(`\\(${key.prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}…\\)$`);

  // A rate limit of one request a minute on the first key.
  const limits = page.getByTestId("rate-limits");
  const limitForm = page.getByRole("form", { name: "Add a rate limit" });
  await limitForm
    .getByLabel("Which")
    .selectOption({ label: await optionLabel(page, limitForm.getByLabel("Which"), keyOption(limited)) });
  await limitForm.getByLabel("Requests / minute").fill("1");
  await limitForm.getByRole("button", { name: "Add limit" }).click();
  await expect(limits.getByRole("listitem").filter({ hasText: limited.prefix })).toContainText("1 requests per minute");

  let res = await invoke(page.request, limited.key, model);
  expect(res.status()).toBe(200);
  expect(res.headers()["ratelimit-policy"]).toBe('"api-key-requests";q=1;w=60');
  expect(res.headers()["ratelimit"]).toMatch(/^"api-key-requests";r=0;t=\d+$/);
  res = await invoke(page.request, limited.key, model);
  expect(res.status()).toBe(429);
  expect((await res.json()).detail).toContain("1 requests per minute");
  expect(Number(res.headers()["retry-after"])).toBeGreaterThan(0);

  // An allowlist on the same key: checked before the rate limit, so the refusal names it.
  const lists = page.getByTestId("allowlists");
  const listForm = page.getByRole("form", { name: "Add a model allowlist" });
  await listForm
    .getByLabel("For")
    .selectOption({ label: await optionLabel(page, listForm.getByLabel("For"), keyOption(limited)) });
  await listForm.getByLabel("Models (comma or space separated)").fill("anthropic/*");
  await listForm.getByRole("button", { name: "Add allowlist" }).click();
  await expect(lists.getByRole("listitem").filter({ hasText: limited.prefix })).toContainText("anthropic/*");
  res = await invoke(page.request, limited.key, model);
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ code: "model_not_allowed", model: `openai/${model}` });

  // A budget of $0.50 a day on the second key: one turn of 1,000 input tokens spends $1000.
  const budgets = page.getByTestId("budgets");
  const budgetForm = page.getByRole("form", { name: "Add a budget" });
  await budgetForm.getByLabel("Name").fill(`e2e ${stamp}`);
  await budgetForm.getByLabel("Applies to").selectOption("api_key");
  await budgetForm
    .getByLabel("API key")
    .selectOption({ label: await optionLabel(page, budgetForm.getByLabel("API key"), keyOption(spender)) });
  await budgetForm.getByLabel("Window").selectOption("day");
  await budgetForm.getByLabel("Time zone (IANA)").fill("UTC");
  await budgetForm.getByLabel("Limit (USD)").fill("0.5");
  await budgetForm.getByRole("button", { name: "Add budget" }).click();
  const budget = budgets.getByRole("listitem").filter({ hasText: `e2e ${stamp}` });
  await expect(budget).toContainText("$0.50 per day in UTC");

  await scriptModel({ kind: "reply", text: "Costly answer.", usage: { input: 1000, output: 10 } });
  res = await invoke(page.request, spender.key, model);
  expect(res.status()).toBe(200);
  await expect
    .poll(async () => (await invoke(page.request, spender.key, model)).status(), { timeout: 10_000 })
    .toBe(402);
  res = await invoke(page.request, spender.key, model);
  expect(await res.json()).toMatchObject({ code: "budget_exceeded", budget: { name: `e2e ${stamp}`, limit_usd: 0.5 } });
  await page.reload();
  await expect(budget).toContainText("$1,000.00 of $0.50 (100%)");
  await expect(budget.getByRole("meter", { name: "Spent of the limit" })).toHaveAttribute(
    "aria-valuetext",
    "$1,000.00 of $0.50",
  );
  await page.screenshot({ path: `${SCREENSHOTS}/settings-controls.png`, fullPage: true });

  // An alias: listed with its entries in order.
  const aliases = page.getByTestId("aliases");
  const aliasForm = page.getByRole("form", { name: "Add a model alias" });
  await aliasForm.getByLabel("Name", { exact: true }).fill(`support-${stamp}`);
  await aliasForm.getByLabel("Entry 1: through").selectOption({ label: "OpenAI · the project's OpenAI key" });
  await aliasForm.getByLabel("Entry 1: model").fill(model);
  await aliasForm.getByRole("button", { name: "Add an entry" }).click();
  await aliasForm.getByLabel("Entry 2: through").selectOption({ label: "Anthropic · the project's Anthropic key" });
  await aliasForm.getByLabel("Entry 2: model").fill("claude-haiku-4-5");
  await aliasForm.getByRole("button", { name: "Add alias" }).click();
  const alias = aliases.getByRole("listitem").filter({ hasText: `support-${stamp}` });
  await expect(alias).toContainText(`openai/${model}`);
  await expect(alias).toContainText("anthropic/claude-haiku-4-5");

  // Removed again, the turn goes through.
  for (const row of [
    limits.getByRole("listitem").filter({ hasText: limited.prefix }),
    lists.getByRole("listitem").filter({ hasText: limited.prefix }),
    budget,
    alias,
  ]) {
    await row.getByRole("button", { name: "Remove" }).click();
    await expect(row).toHaveCount(0);
  }
  expect((await invoke(page.request, spender.key, model)).status()).toBe(200);
  expect((await invoke(page.request, limited.key, model)).status()).toBe(200);
  await mutate(page.request, "pricing.delete", { id: price.id });
});

function invoke(request: APIRequestContext, key: string, model: string) {
  return request.post("/services/agent/v0/invoke", {
    headers: { authorization: `ApiKey ${key}`, accept: "application/json" },
    data: {
      data: {
        inputs: { messages: [{ role: "user", content: "hello" }] },
        parameters: { agent: { llm: { provider: "openai", model }, tools: [] } },
      },
    },
  });
}

/** The label of the select's option that matches: options read "name (prefix…)". */
async function optionLabel(page: Page, select: ReturnType<Page["getByLabel"]>, pattern: RegExp): Promise<string> {
  await expect(select.locator("option", { hasText: pattern })).toHaveCount(1);
  return (await select.locator("option", { hasText: pattern }).textContent())!;
}
