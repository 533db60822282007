import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { scriptModel } from "./model-script";
import { screenshot } from "./screenshot";
import { mutate, query, traceStored } from "./trpc";
import { hydrated } from "./hydrated";

/** What a new user tripped over in the playground (issue 26), checked where it is seen. */

async function seedAgent(page: Page, name: string) {
  const created = await mutate(page.request, "agents.create", { name: `${name} ${Date.now().toString(36)}` });
  const template = created.revision.data.parameters.agent;
  const v2 = await mutate(page.request, "agents.commit", {
    variantId: created.variant.id,
    template: {
      ...template,
      instructions: {
        agents_md: `${template.instructions.agents_md}\n\n${"- A long rule that makes the diff tall.\n".repeat(40)}`,
      },
    },
    message: "A tall change",
  });
  return {
    created,
    template,
    v2: v2.revision.id as string,
    base: `/agents/${created.agent.id}/variants/${created.variant.id}`,
  };
}

/** The element lies within the viewport, top and bottom. */
async function expectOnScreen(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  expect(box!.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what}: bottom`).toBeLessThanOrEqual(viewport.height + 1);
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the deploy confirmation fits ${size.width}x${size.height}: title, summary and button on screen, the diff scrolls`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(size);
    const agent = await seedAgent(page, "Deploy fit");
    await page.goto(`${agent.base}/deploy?revision=${agent.v2}`);
    await page.getByTestId("environment-card-staging").getByRole("button", { name: "Deploy v2 to staging" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Deploy v2 to staging?" });
    await expect(dialog.getByTestId("deploy-summary")).toBeVisible();
    await expectOnScreen(page, dialog.getByRole("heading", { name: "Deploy v2 to staging?" }), "title");
    await expectOnScreen(page, dialog.getByTestId("deploy-summary"), "summary");
    await expectOnScreen(page, dialog.getByRole("button", { name: "Deploy v2 to staging" }), "confirm button");
    const box = await dialog.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(size.height);
    await screenshot(page, testInfo, `deploy-dialog-${size.width}`);
  });
}

test("the Overview lists Chat, Traces and Webhooks as pages that exist, nothing as coming soon", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText(/coming|soon/i)).toHaveCount(0);
  for (const [name, href] of [
    ["Traces", "/traces"],
    ["Webhooks", "/webhooks"],
    ["Agents", "/agents"],
  ]) {
    await expect(page.getByRole("main").getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute(
      "href",
      href,
    );
  }
  await expect(page.getByRole("main").getByRole("link", { name: /^Agents/ })).toContainText("chat with it");
});

test("chat: long words wrap on a phone, the page's chat is tall, the URL names the session and a reload reopens it, the chat page reopens the last session; a failed turn links its trace", async ({
  page,
}, testInfo) => {
  const agent = await seedAgent(page, "Chat fit");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${agent.base}/chat`);
  await expect(page.getByRole("navigation", { name: "Agent views" })).toBeVisible();
  const transcript = page.locator('[aria-live="polite"]:not([data-testid="toasts"])');
  await expect
    .poll(async () => (await transcript.boundingBox())!.height, { message: "message area at 1280x800" })
    .toBeGreaterThanOrEqual(380);
  await expectOnScreen(page, page.getByRole("button", { name: "Send", exact: true }), "send button at 1280x800");

  await page.setViewportSize({ width: 390, height: 844 });
  const word = "Supercalifragilistic".repeat(8);
  await scriptModel({ kind: "reply", text: `Echo: ${word}` });
  await page.getByLabel("Message the agent").fill(word);
  await page.getByLabel("Message the agent").press("Enter");
  await expect(page.getByText(`Echo: ${word}`)).toBeVisible();
  for (const bubble of [page.getByTestId("user-message").locator("div"), page.getByText(`Echo: ${word}`)]) {
    const fits = await bubble.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(fits, "a long word wraps inside its message").toBe(true);
  }
  await screenshot(page, testInfo, "chat-long-word-390");

  // The stored session is named in the URL; a reload reopens it.
  await expect(page).toHaveURL(/[?&]session=[\w-]+/);
  await page.reload();
  await expect(page.getByText(`Echo: ${word}`)).toBeVisible();
  // Coming back to the chat page without naming a session continues the most recent one.
  await page.goto(`${agent.base}/chat`);
  await expect(page.getByText(`Echo: ${word}`)).toBeVisible();

  // The provider refuses the key: the failed turn says so and links its trace.
  await scriptModel({ kind: "status", status: 401 });
  await page.getByLabel("Message the agent").fill("again");
  await page.getByLabel("Message the agent").press("Enter");
  await expect(page.getByText(/rejected by the provider: 401/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Open its trace ↗" })).toHaveAttribute("href", /\/traces\/[0-9a-f]{32}$/);
  await expect(page.getByText("was lost before the reply finished")).toHaveCount(0);
});

test("the editor's chat pane keeps its composer on screen at 1600x900; the form has model settings", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  await createAgentFromList(page, `Pane fit ${Date.now().toString(36)}`);
  const pane = page.getByRole("complementary", { name: "Chat" });
  const show = page.getByRole("button", { name: "Show chat panel" });
  await expect(pane.or(show)).toBeVisible();
  if (await show.isVisible()) await show.click();
  await expectOnScreen(page, pane.getByLabel("Message the agent"), "draft chat composer");
  await screenshot(page, testInfo, "editor-pane-1600");

  await page.getByLabel("Temperature").fill("0.3");
  await page.getByLabel("Max output tokens").fill("800");
  await page.getByLabel("Reasoning effort").selectOption("low");
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  const json = JSON.parse(await page.getByLabel("Agent template (JSON)").inputValue());
  expect(json.llm.extras).toEqual({ temperature: 0.3, max_output_tokens: 800, reasoning_effort: "low" });
  // What was committed at creation is what a person sets: no schema expansion.
  expect(JSON.stringify(json)).not.toMatch(/"render"|null/);
});

/** A select's chosen option and a textarea's placeholder are shown whole (not cut at the box's edge). */
async function shownWhole(field: Locator): Promise<boolean> {
  return field.evaluate((el) => {
    const style = getComputedStyle(el);
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (el instanceof HTMLSelectElement) {
      const canvas = document.createElement("canvas").getContext("2d")!;
      canvas.font = style.font;
      return canvas.measureText(el.selectedOptions[0]!.text).width <= room;
    }
    // The placeholder laid out as the textarea lays it out: same width, font and wrapping.
    const probe = document.createElement("div");
    Object.assign(probe.style, {
      position: "absolute",
      visibility: "hidden",
      width: `${room}px`,
      font: style.font,
      lineHeight: style.lineHeight,
      whiteSpace: "pre-wrap",
      overflowWrap: "break-word",
    });
    probe.textContent = (el as HTMLTextAreaElement).placeholder;
    document.body.append(probe);
    const height = probe.getBoundingClientRect().height;
    probe.remove();
    return height <= el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) + 1;
  });
}

test("the editor's chat pane at 1280x800 shows its session picker and its composer's placeholder whole", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const agent = await seedAgent(page, "Pane text");
  await page.goto(agent.base);
  const pane = page.getByRole("complementary", { name: "Chat" });
  const show = page.getByRole("button", { name: "Show chat panel" });
  await expect(pane.or(show)).toBeVisible();
  if (await show.isVisible()) await show.click();
  const picker = pane.getByLabel("Chat session");
  const composer = pane.getByLabel("Message the agent");
  await expect(composer).toBeVisible();
  expect(await shownWhole(picker), "session picker").toBe(true);
  expect(await shownWhole(composer), "composer placeholder").toBe(true);
});

test("traces list: each run says what went in and out, and the search box keeps its width on a phone", async ({
  page,
}, testInfo) => {
  const agent = await seedAgent(page, "Traced");
  await scriptModel({ kind: "reply", text: "The order ships tomorrow." });
  await page.goto(`${agent.base}/chat`);
  await hydrated(page.getByLabel("Message the agent"));
  await page.getByLabel("Message the agent").fill("Where is order 4411?");
  await page.getByLabel("Message the agent").press("Enter");
  await expect(page.getByText("The order ships tomorrow.")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  // The list is read once per visit: the run's trace is in the store before it is opened.
  await traceStored(page.request, "Where is order 4411?");
  await page.goto("/traces");
  const row = page.getByTestId("trace-row").filter({ hasText: "Where is order 4411?" });
  await expect(row).toBeVisible();
  await expect(row).toContainText("The order ships tomorrow.");
  await expect(row).toContainText("gpt-5-mini");
  await expect(row).toContainText("session");
  const search = (await page.getByLabel("Text", { exact: true }).boundingBox())!;
  expect(search.width).toBeGreaterThanOrEqual(300);
  await screenshot(page, testInfo, "traces-390");
});

test("history actions are shown on a touch screen; the harness help names the runner policy that gates tools", async ({
  browser,
}) => {
  const context = await browser.newContext({
    storageState: test.info().project.use.storageState as string,
    viewport: { width: 1280, height: 800 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const agent = await seedAgent(page, "Touch");
  await page.goto(`${agent.base}/history`);
  const actions = page.getByTestId("revision-actions").last();
  await expect(actions).toBeVisible();
  expect(await actions.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");

  await page.goto(agent.base);
  await expect(page.getByText(/does not gate tool use/)).toHaveCount(0);
  await expect(page.getByText(/runner policy's decision/).first()).toBeVisible();
  await context.close();
});

test("webhooks: a subscription whose deliveries fail says so, and a pending delivery says when it is tried next", async ({
  page,
}, testInfo) => {
  // Nothing listens on this port: every delivery fails, and each is retried later.
  const hook = await mutate(page.request, "webhooks.create", {
    subscription: {
      name: `Failing hook ${Date.now().toString(36)}`,
      data: {
        url: "https://127.0.0.1:9/hook",
        event_types: ["workflows.revisions.committed"],
        headers: null,
        auth_mode: "signature",
      },
    },
  });
  await seedAgent(page, "Hooked");
  // The list is read once per visit: the worker has failed a delivery before it is opened.
  await expect
    .poll(
      async () =>
        (await query<{ id: string; failing_since?: string }[]>(page.request, "webhooks.list")).find(
          (s) => s.id === hook.id,
        )?.failing_since,
      { timeout: 60_000 },
    )
    .toBeTruthy();
  await page.goto("/webhooks");
  const row = page.getByTestId("webhook-row").filter({ hasText: hook.name });
  await expect(row).toContainText("Failing");
  await expect(row).not.toContainText("Active");
  await expect(row).toContainText("Every delivery has failed since");
  await row.getByRole("link", { name: hook.name }).click();
  await expect(page.getByTestId("subscription-state")).toContainText("Failing");
  await expect(page.getByTestId("next-attempt").first()).toContainText(
    /next attempt (in \d+ (seconds?|minutes?)|just now)/,
  );
  await screenshot(page, testInfo, "webhook-failing");
  // The webhooks spec starts from a project without webhooks.
  await mutate(page.request, "webhooks.delete", { id: hook.id });
});
