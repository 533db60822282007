import { expect, test, type Page } from "@playwright/test";
import { mutate } from "./trpc";

/**
 * Every playground page at a phone width and a laptop width, light and dark: nothing wider than
 * the window, the navigation reachable (the sidebar, or the labelled menu button below `md`),
 * and a screenshot of each kept as a test artifact.
 */

const LONG_NAME = "Customer support escalation triage agent for the enterprise tier with a very long name indeed";

interface Seed {
  agentId: string;
  variantId: string;
  v1: string;
  v2: string;
  traceId: string;
  triageId: string;
  optimizationId: string;
}

let seed: Seed;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const created = await mutate(context.request, "agents.create", { name: `${LONG_NAME} ${Date.now().toString(36)}` });
  const template = created.revision.data.parameters.agent;
  const second = await mutate(context.request, "agents.commit", {
    variantId: created.variant.id,
    template: {
      ...template,
      instructions: {
        agents_md: `${template.instructions.agents_md}\n\n- Escalate refunds with the order number and a one-line summary of the customer's problem.`,
      },
    },
    message: "Escalate refunds with a summary that is long enough to need truncating on a phone",
  });
  await mutate(context.request, "agents.deploy", { revisionId: created.revision.id, environment: "staging" });
  // A trace to open: a one-span annotation through the public API (the span-ingest worker stores it).
  const apiKey = await mutate(context.request, "apiKeys.create", { name: `responsive ${Date.now()}` });
  const trace = await context.request.post("/api/simple/traces/", {
    headers: { authorization: `ApiKey ${apiKey.key}` },
    data: {
      trace: {
        origin: "human",
        kind: "adhoc",
        channel: "api",
        data: { outputs: { score: 5, comment: "A long comment to see how the attributes wrap on a phone" } },
      },
    },
  });
  expect(trace.status()).toBe(202);
  // The improvement loop's pages: a triage grouped without a model, an optimization of v2.
  const triage = await mutate(context.request, "improve.startTriage", { traces: { since: "24h" } });
  const headers = { authorization: `ApiKey ${apiKey.key}` };
  const testset = await context.request.post("/api/simple/testsets/", {
    headers,
    data: {
      testset: {
        slug: `responsive-${Date.now()}`,
        data: { testcases: [{ question: "Refund?" }, { question: "Return?" }] },
      },
    },
  });
  const evaluator = await context.request.post("/api/simple/evaluators/", {
    headers,
    data: {
      evaluator: { slug: `responsive-${Date.now()}`, data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} } },
    },
  });
  const optimization = await mutate(context.request, "improve.startOptimization", {
    base_revision_id: second.revision.id,
    testset_revision_id: (await testset.json()).testset.revision_id,
    evaluator_revision_ids: [(await evaluator.json()).evaluator.revision_id],
    strategies: ["few_shot"],
    rounds: 1,
    candidates_per_round: 1,
  });
  seed = {
    agentId: created.agent.id,
    variantId: created.variant.id,
    v1: created.revision.id,
    v2: second.revision.id,
    traceId: (await trace.json()).trace.trace_id,
    triageId: triage.id,
    optimizationId: optimization.id,
  };
  await context.close();
});

function pages(s: Seed): { name: string; path: string }[] {
  const base = `/agents/${s.agentId}/variants/${s.variantId}`;
  return [
    { name: "home", path: "/" },
    { name: "agents", path: "/agents" },
    { name: "editor", path: base },
    { name: "editor-json", path: `${base}?view=json` },
    { name: "chat", path: `${base}/chat` },
    { name: "chat-compare", path: `${base}/chat?compare=1` },
    { name: "history", path: `${base}/history` },
    { name: "revision", path: `${base}/revisions/${s.v2}` },
    { name: "diff", path: `${base}/diff?from=${s.v1}&to=${s.v2}` },
    { name: "deploy", path: `${base}/deploy` },
    { name: "environments", path: "/environments" },
    { name: "environment", path: "/environments/staging" },
    { name: "connections", path: "/connections" },
    { name: "traces", path: "/traces" },
    { name: "trace", path: `/traces/${s.traceId}` },
    { name: "webhooks", path: "/webhooks" },
    { name: "settings", path: "/settings" },
    { name: "improve", path: "/improve" },
    { name: "triage", path: `/improve/triages/${s.triageId}` },
    { name: "optimization", path: `/improve/optimizations/${s.optimizationId}` },
    { name: "not-found", path: "/no-such-page" },
  ];
}

/** Waits until no skeleton or loading status is left on the page. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
}

async function expectNavigationReachable(page: Page, narrow: boolean) {
  if (!narrow) {
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" })).toBeVisible();
    return;
  }
  const menu = page.getByRole("button", { name: "Open menu" });
  await expect(menu).toBeVisible();
  await menu.click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  await expect(drawer.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
}

const widths = [390, 1280] as const;
const schemes = ["light", "dark"] as const;

for (const width of widths) {
  test(`every page fits ${width} px, light and dark`, async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    const titleLefts = new Map<string, number>();
    for (const { name, path } of pages(seed)) {
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto(path);
      await settle(page);
      // The scheme switches in place (colours are light-dark() tokens): one visit checks both.
      for (const scheme of schemes) {
        await page.emulateMedia({ colorScheme: scheme });
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background, `${name}: ${scheme} background`).toBe(
          scheme === "dark" ? "rgb(12, 12, 15)" : "rgb(248, 248, 249)",
        );
        const seen = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          inner: window.innerWidth,
        }));
        expect(seen.scroll, `${name} (${path}) overflows at ${width} px, ${scheme}`).toBeLessThanOrEqual(seen.inner);
        // Lists that stack on a phone (Agents, API keys, Members) show every column: nothing scrolls out of the card.
        const cutOff = await page.evaluate(() =>
          [...document.querySelectorAll("table[data-stacked]")]
            .filter((table) => table.parentElement!.scrollWidth > table.parentElement!.clientWidth + 1)
            .map((table) => table.getAttribute("aria-label")),
        );
        expect(cutOff, `${name}: tables cut off at ${width} px`).toEqual([]);
        await page.screenshot({ path: testInfo.outputPath(`${name}-${width}-${scheme}.png`) });
      }
      const titleLeft = await page.evaluate(() => document.querySelector("main h1")?.getBoundingClientRect().x);
      // The not-found page has no sidebar: its gutter is the window's.
      if (titleLeft !== undefined && name !== "not-found") titleLefts.set(name, Math.round(titleLeft));
      // The current tab is in view in the sideways-scrolling strip (Deploy is last: on a phone, past the edge).
      if (name === "deploy")
        await expect(
          page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Deploy" }),
        ).toBeInViewport({ ratio: 0.95 });
      if (name === "not-found") await expect(page.getByRole("link", { name: /agents/i }).first()).toBeVisible();
      else await expectNavigationReachable(page, width < 768);
    }
    // One gutter: every page's title starts where the agent pages' does.
    expect(new Set(titleLefts.values()), JSON.stringify(Object.fromEntries(titleLefts))).toHaveProperty("size", 1);
  });
}

test("the theme switch in the user menu overrides the system and survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/agents");
  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle).toHaveAttribute("data-theme", "system");
  await toggle.click();
  await expect(toggle).toHaveAccessibleName("Theme: Light. Switch to Dark");
  await toggle.click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(12, 12, 15)");
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme", "dark");
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b|\blight\b/);
});
