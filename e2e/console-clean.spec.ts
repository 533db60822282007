import { expect, test, type ConsoleMessage, type Page } from "@playwright/test";
import { mutate } from "./trpc";

/**
 * Every page of the playground, loaded fresh: no console error, no hydration warning and no
 * uncaught exception on any of them (a `<thead>` inside a `<th>` logged React's #418 on every
 * load of Settings). The 404 page's own document status is the only message it may log.
 */

interface Seed {
  base: string;
  v1: string;
  v2: string;
  traceId: string;
  webhookId: string;
}

let seed: Seed;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const created = await mutate(context.request, "agents.create", { name: `Console probe ${Date.now().toString(36)}` });
  const template = created.revision.data.parameters.agent;
  const second = await mutate(context.request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, instructions: { agents_md: "Answer in one sentence." } },
    message: "Shorter answers",
  });
  const apiKey = await mutate(context.request, "apiKeys.create", { name: `console ${Date.now()}` });
  const trace = await context.request.post("/api/simple/traces/", {
    headers: { authorization: `ApiKey ${apiKey.key}` },
    data: { trace: { origin: "human", kind: "adhoc", channel: "api", data: { outputs: { score: 5 } } } },
  });
  expect(trace.status()).toBe(202);
  const webhook = await mutate(context.request, "webhooks.create", {
    subscription: {
      name: "Console probe hook",
      data: { url: "https://127.0.0.1:9/console", event_types: null, headers: null, auth_mode: "signature" },
    },
  });
  seed = {
    base: `/agents/${created.agent.id}/variants/${created.variant.id}`,
    v1: created.revision.id,
    v2: second.revision.id,
    traceId: (await trace.json()).trace.trace_id,
    webhookId: webhook.id,
  };
  await context.close();
});

// The webhooks spec starts from a project without webhooks.
test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  await mutate(context.request, "webhooks.delete", { id: seed.webhookId });
  await context.close();
});

function everyPage(s: Seed): string[] {
  return [
    "/",
    "/agents",
    s.base,
    `${s.base}?view=json`,
    `${s.base}/chat`,
    `${s.base}/chat?compare=1`,
    `${s.base}/history`,
    `${s.base}/revisions/${s.v2}`,
    `${s.base}/diff?from=${s.v1}&to=${s.v2}`,
    `${s.base}/deploy`,
    "/environments",
    "/environments/development",
    "/connections",
    "/traces",
    `/traces/${s.traceId}`,
    "/webhooks",
    `/webhooks/${s.webhookId}`,
    "/settings",
    "/no-such-page",
  ];
}

/** What the page said that a person should never see in the console. */
function listen(page: Page): string[] {
  const problems: string[] = [];
  const isProblem = (message: ConsoleMessage) =>
    message.type() === "error" || (message.type() === "warning" && /hydrat|did not match/i.test(message.text()));
  page.on("console", (message) => {
    if (isProblem(message)) problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

test("no page logs a console error, a hydration mismatch or an uncaught exception", async ({ page }) => {
  test.setTimeout(120_000);
  const problems = listen(page);
  for (const path of everyPage(seed)) {
    problems.length = 0;
    await page.goto(path);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
    const unexpected = path === "/no-such-page" ? problems.filter((p) => !/status of 404/.test(p)) : problems;
    expect(unexpected, `${path} logged`).toEqual([]);
  }
});

test("Settings lists members under real column headers", async ({ page }) => {
  await page.goto("/settings");
  const table = page.getByRole("region", { name: "Members" }).getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["Name", "Email", "Role", "Joined", "Actions"]);
  // The header cells sit side by side in one row, left to right, not stacked in a corner.
  const cells = await table
    .getByRole("columnheader")
    .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left })));
  expect(new Set(cells.map((c) => Math.round(c.top))).size).toBe(1);
  expect(cells.map((c) => c.left)).toEqual([...cells.map((c) => c.left)].sort((a, b) => a - b));
  expect(new Set(cells.map((c) => Math.round(c.left))).size).toBe(cells.length);
});
