import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { mutate, query, traceStored } from "./trpc";
import { hydrated } from "./hydrated";

/** The seams of issue 57 the first pass left: each flow as a person goes through it. */

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("");

/** One run's root span (and a chat child) as a client sends it to the ingest API. */
function runSpans(options: { name: string; model?: string; user?: string; agentId?: string; error?: boolean }) {
  const trace = hex(32);
  const root = hex(16);
  const start = new Date(Date.now() - 5_000).toISOString();
  const end = new Date().toISOString();
  const status = options.error ? "STATUS_CODE_ERROR" : "STATUS_CODE_OK";
  const model = options.model ?? "e2e-model";
  return [
    {
      trace_id: trace,
      span_id: root,
      span_name: `invoke_agent ${options.name}`,
      start_time: start,
      end_time: end,
      status_code: status,
      ...(options.user ? { user_id: options.user, session_id: `${options.user}-session` } : {}),
      ...(options.agentId ? { agent_id: options.agentId } : {}),
      // The name as content too: the trace list's text search reads attributes, not span names.
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.request.model": model,
        "ag.data.inputs.prompt": options.name,
      },
    },
    {
      trace_id: trace,
      span_id: hex(16),
      parent_id: root,
      span_name: `chat ${model}`,
      start_time: start,
      end_time: end,
      status_code: status,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
        "ag.metrics.tokens.incremental.prompt": 10,
        "ag.metrics.tokens.incremental.completion": 5,
      },
    },
  ];
}

async function ingest(request: APIRequestContext, spans: unknown[]) {
  const key = await mutate<{ id: string; key: string }>(request, "apiKeys.create", { name: `seams-2 ${hex(6)}` });
  const res = await request.post("/api/tracing/spans/ingest", {
    headers: { authorization: `ApiKey ${key.key}` },
    data: { spans },
  });
  expect(res.status(), await res.text()).toBe(202);
  return key;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

for (const width of [1280, 390]) {
  test(`an alias over a stored connection is made in Settings, and a refusal reads in words (${width} px)`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    const stamp = hex(6);
    const connection = `Local llama ${stamp}`;
    await mutate(page.request, "connections.create", {
      header: { name: connection },
      secret: {
        kind: "custom_provider",
        data: { kind: "custom", provider: { url: "http://127.0.0.1:9/v1" }, models: [{ slug: "llama-3" }] },
      },
    });
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Add a model alias" });
    // A name the API refuses: its rule, in words, not the API's "Request body is invalid".
    await form.getByLabel("Name", { exact: true }).fill(`Bad Name ${stamp}`);
    await form.getByLabel("Entry 1: model").fill("gpt-5-mini");
    await form.getByRole("button", { name: "Add alias" }).click();
    const error = form.getByTestId("alias-error");
    await expect(error).toContainText("Name: lowercase letters");
    await expect(error).not.toContainText("Request body is invalid");

    const name = `local-first-${stamp}`;
    await form.getByLabel("Name", { exact: true }).fill(name);
    const through = form.getByLabel("Entry 1: through");
    await through.selectOption({ label: `${connection} · custom provider` });
    await form.getByLabel("Entry 1: model").fill("llama-3");
    await form.getByRole("button", { name: "Add an entry" }).click();
    await form.getByLabel("Entry 2: through").selectOption({ label: "OpenAI · the project's OpenAI key" });
    await form.getByLabel("Entry 2: model").fill("gpt-5-mini");
    if (width < 500) await noSidewaysScroll(page);
    await form.getByRole("button", { name: "Add alias" }).click();
    const alias = page.getByTestId("aliases").getByRole("listitem").filter({ hasText: name });
    await expect(alias).toContainText(`custom/llama-3 via ${connection}`);
    await expect(alias).toContainText("openai/gpt-5-mini");
    await expect(error).toHaveCount(0);

    // Removed again: the project is shared with the other specs.
    await alias.getByRole("button", { name: /Remove/ }).click();
    await expect(alias).toHaveCount(0);
  });
}

test("a user's data is deleted from the Users view, once confirmed", async ({ page }) => {
  test.setTimeout(120_000);
  const user = `seams-user-${hex(8)}`;
  const key = await ingest(page.request, [
    ...runSpans({ name: `${user} one`, user }),
    ...runSpans({ name: `${user} two`, user }),
  ]);
  await traceStored(page.request, user);
  await page.goto("/analytics/users");
  const row = page.getByTestId("user-row").filter({ hasText: user });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await row.getByRole("button", { name: `Delete this user's data: ${user}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete the data of ${user}?` });
  await expect(confirm).toContainText("This cannot be undone.");
  // Cancel keeps everything.
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: `Delete this user's data: ${user}` }).click();
  await confirm.getByRole("button", { name: "Delete for good" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("user-data-deleted")).toContainText(`${user}:`);
  await expect(row).toHaveCount(0);
  expect((await query<{ traces: unknown[] }>(page.request, "traces.list", { text: user })).traces).toHaveLength(0);
  await mutate(page.request, "apiKeys.revoke", { id: key.id });
});

test("the audit log names model-price and monitor changes", async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = hex(6);
  const price = await mutate<{ id: string }>(page.request, "pricing.set", {
    provider: "custom",
    model: `audited-${stamp}`,
    usd_per_million_tokens: { prompt: 1, completion: 2 },
  });
  await mutate(page.request, "pricing.delete", { id: price.id });
  const monitor = await mutate<{ id: string }>(page.request, "monitors.create", {
    monitor: {
      name: `audited monitor ${stamp}`,
      metric: { name: "error_rate" },
      scope: { kind: "project" },
      window_seconds: 300,
      operator: "above",
      threshold: 0.5,
    },
  });
  await mutate(page.request, "monitors.remove", { id: monitor.id });

  await page.goto("/settings");
  const audit = page.getByRole("region", { name: "Audit log" });
  // The filter names one action exactly.
  const named = async (action: string, text: string) => {
    await audit.getByLabel("Filter by action").fill(action);
    await expect(audit.getByTestId("audit-entry").filter({ hasText: action }).first()).toContainText(text);
  };
  await named("model_price.created", `model price custom/audited-${stamp}`);
  await named("model_price.deleted", `custom/audited-${stamp}`);
  await named("monitor.created", `monitor audited monitor ${stamp}`);
  await named("monitor.deleted", `audited monitor ${stamp}`);
});

test("the model picker marks the models the project's allowlist forbids, and says why when one is chosen", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const created = await mutate(page.request, "agents.create", { name: `Allowed ${hex(6)}` });
  const list = await mutate<{ id: string }>(page.request, "controls.allowlists.create", {
    scope: "project",
    patterns: ["openai/gpt-5-mini"],
  });
  try {
    await page.goto(`/agents/${created.agent.id}/variants/${created.variant.id}`);
    const provider = page.locator("#field-provider");
    await hydrated(provider);
    await provider.selectOption("openai");
    const model = page.locator("#field-model");
    await expect(model.locator("option").filter({ hasText: "GPT-5 mini" }).first()).not.toContainText("not allowed");
    const forbidden = model.locator("option").filter({ hasText: "not allowed" }).first();
    await expect(forbidden).toBeAttached();
    await model.selectOption((await forbidden.getAttribute("value"))!);
    const why = page.getByTestId("model-not-allowed");
    await expect(why).toContainText("is not allowed by the project's model allowlist (openai/gpt-5-mini)");
    await expect(why).toContainText("Settings → Model allowlists");
  } finally {
    await mutate(page.request, "controls.allowlists.delete", { id: list.id });
  }
});

test("a canary guarded by a monitor scoped to its agent through the picker is rolled back when the monitor fires", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const name = `Guarded ${hex(6)}`;
  const created = await mutate(page.request, "agents.create", { name });
  const template = created.revision.data.parameters.agent;
  const second = await mutate(page.request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: "Answer in one sentence." } },
    message: "Shorter answers",
  });
  await mutate(page.request, "agents.deploy", { revisionId: created.revision.id, environment: "staging" });

  // The monitor: scoped to the agent by picking it by name (stored as its id, which runs carry).
  const monitorName = `errors of ${name}`;
  await page.goto("/monitors?new=1");
  const form = page.getByRole("form", { name: "New monitor" });
  const scope = form.getByRole("combobox", { name: /^Scope/ });
  await hydrated(scope);
  await scope.selectOption("agent");
  await form.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: name });
  await form.getByRole("spinbutton", { name: /^Threshold/ }).fill("20");
  await form.getByLabel("Name", { exact: true }).fill(monitorName);
  await form.getByRole("button", { name: "Create monitor" }).click();
  await expect(form).toBeHidden();

  // The canary, guarded by it, from the deploy dialog.
  await page.goto(`/agents/${created.agent.id}/variants/${created.variant.id}/deploy?revision=${second.revision.id}`);
  await page.getByTestId("environment-card-staging").getByRole("button", { name: "Deploy v2 to staging" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Deploy v2 to staging?" });
  await dialog.getByLabel(/Release as a canary/).check();
  await dialog.getByLabel("Share of traffic").fill("30");
  await dialog.getByTestId("canary-monitors").getByLabel(monitorName).check();
  await dialog.getByRole("button", { name: "Start canary at 30%" }).click();
  await expect(dialog).toBeHidden();

  // The agent's runs fail: the monitor (checked each minute) fires and the canary is rolled back.
  const key = await ingest(page.request, [
    ...runSpans({ name: `${name} 1`, agentId: created.agent.id, error: true }),
    ...runSpans({ name: `${name} 2`, agentId: created.agent.id, error: true }),
    ...runSpans({ name: `${name} 3`, agentId: created.agent.id, error: true }),
  ]);
  await page.goto("/environments/staging");
  const rolledBack = page
    .getByTestId("deploy-log-item")
    .filter({ hasText: name })
    .filter({ has: page.getByTestId("canary-action").filter({ hasText: "Canary rolled back" }) });
  await expect(async () => {
    await page.reload();
    await expect(rolledBack).toHaveCount(1, { timeout: 3_000 });
  }).toPass({ timeout: 180_000, intervals: [5_000] });
  await expect(rolledBack).toContainText(`monitor "${monitorName}" fired`);
  await expect(page.getByTestId("canary-card").filter({ hasText: `${created.agent.slug}.revision` })).toHaveCount(0);
  await mutate(page.request, "apiKeys.revoke", { id: key.id });
});
