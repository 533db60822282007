import { expect, test, type Page } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { modelRequests, scriptModel } from "./model-script";

const SCREENSHOTS = "test-results/screenshots";

test.describe.configure({ timeout: 120_000 });

const template = {
  instructions: { agents_md: "Pick colours for the user. Draft instruction 7f3a." },
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [
    {
      type: "client",
      name: "pick_color",
      description: "Ask the user for a colour",
      input_schema: { type: "object", properties: { hint: { type: "string" } } },
    },
  ],
};

async function createAgent(page: Page, name: string) {
  await createAgentFromList(page, name);
  await expect(page.getByTestId("current-version")).toHaveText("v1");
}

test("chat: the draft beside the editor streams reasoning and text, a client tool is answered in the browser, usage, cost and trace per turn, regenerate; then the committed revision on the chat tab, stop", async ({
  page,
}) => {
  await createAgent(page, `Colour picker ${Date.now().toString(36)}`);
  const editorUrl = page.url();

  // The draft: a client tool and an instruction that is never committed before the first chat.
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page.getByLabel("Agent template (JSON)").fill(JSON.stringify(template, null, 2));
  await expect(page.getByTestId("unsaved-indicator")).toBeVisible();

  await scriptModel(
    {
      kind: "reply",
      reasoning: "The user wants a colour; ask them.",
      text: "Let me ask you.",
      toolCalls: [{ id: "call_1", name: "pick_color", input: { hint: "warm" } }],
    },
    { kind: "reply", text: "Red it is.", usage: { input: 1200, output: 300 } },
  );
  await page.getByRole("button", { name: "Show chat panel" }).click();
  const pane = page.getByRole("complementary", { name: "Chat" });
  await expect(pane).toContainText("Chat with the draft");
  await pane.getByLabel("Message the agent").fill("Choose a colour for me");
  await pane.getByLabel("Message the agent").press("Enter");
  await expect(pane.getByTestId("user-message")).toHaveText("Choose a colour for me");

  // The turn pauses on the client tool: a card with the input, waiting for the person.
  const card = pane.getByTestId("tool-call");
  await expect(card).toContainText("pick_color");
  await expect(card).toContainText("Waiting for you");
  await expect(card).toContainText('"hint": "warm"');
  await expect(pane.getByText("Let me ask you.")).toBeVisible();
  // Reasoning is collapsed once streamed, and opens on demand.
  const reasoning = pane.getByText("The user wants a colour; ask them.");
  await expect(reasoning).toBeHidden();
  await pane.getByText("Reasoning", { exact: true }).click();
  await expect(reasoning).toBeVisible();

  await card.getByLabel("Answer for pick_color").fill("red");
  await card.getByRole("button", { name: "Send answer" }).click();
  await expect(pane.getByText("Red it is.")).toBeVisible();
  await expect(card).toContainText("Done");
  const footer = pane.getByTestId("turn-footer");
  await expect(footer).toContainText("1,200 in · 300 out · $0.00090");
  await expect(footer.getByRole("link", { name: /Trace [0-9a-f]{8}/ })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/chat-editor-pane.png` });

  // The turn's trace, opened from the chat in a new tab: span tree, waterfall, roll-ups, a span's attributes.
  const [tracePage] = await Promise.all([
    page.context().waitForEvent("page"),
    footer.getByRole("link", { name: /Trace [0-9a-f]{8}/ }).click(),
  ]);
  await expect(tracePage).toHaveURL(/\/traces\/[0-9a-f]{32}$/);
  const chatTrace = new URL(tracePage.url()).pathname;
  const spans = tracePage.getByTestId("span-row");
  await expect(spans).toHaveCount(3, { timeout: 20_000 });
  await expect(spans.nth(0)).toContainText("invoke_agent");
  await expect(spans.nth(1)).toContainText("turn 1");
  await expect(spans.nth(2)).toContainText("chat");
  const summary = tracePage.getByTestId("trace-summary");
  await expect(summary).toContainText("1,200 in · 300 out");
  await expect(summary).toContainText("$0.00090");
  await spans.nth(2).getByRole("link").click();
  await expect(tracePage).toHaveURL(/\?span=[0-9a-f]{16}$/);
  await expect(tracePage.getByTestId("span-details").getByRole("heading", { name: "chat" })).toBeVisible();
  await tracePage.reload();
  await expect(tracePage.getByTestId("span-details").getByRole("heading", { name: "chat" })).toBeVisible();
  await tracePage.screenshot({ path: `${SCREENSHOTS}/trace-view.png` });
  // The list, filtered; the filters are in the URL.
  await tracePage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Traces" }).click();
  await expect(tracePage.getByTestId("trace-row").first()).toBeVisible();
  await tracePage.getByLabel("Status").selectOption("ok");
  await expect(tracePage).toHaveURL(/\/traces\?status=ok$/);
  await expect(tracePage.getByTestId("trace-row").first()).toContainText("invoke_agent");
  await tracePage.getByLabel("Status").selectOption("error");
  await expect(tracePage).toHaveURL(/\/traces\?status=error$/);
  // Other specs' runs may have failed (the analytics views seed errors); this chat's trace did not.
  await expect(tracePage.getByText("No traces match").or(tracePage.getByTestId("trace-row").first())).toBeVisible();
  await expect(tracePage.locator(`a[href="${chatTrace}"]`)).toHaveCount(0);
  await tracePage.screenshot({ path: `${SCREENSHOTS}/traces-list.png` });
  await tracePage.close();

  // The model saw the uncommitted draft, and the browser's answer to the tool.
  const requests = await modelRequests();
  const [asked, answered] = requests.slice(-2).map((r) => JSON.stringify(r.body));
  expect(asked).toContain("Draft instruction 7f3a.");
  expect(answered).toContain('"function_call_output"');
  expect(answered).toContain('"output":"red"');

  // Regenerate replaces the last reply.
  await scriptModel({ kind: "reply", text: "Blue, this time." });
  await pane.getByRole("button", { name: "Regenerate" }).click();
  await expect(pane.getByText("Blue, this time.")).toBeVisible();
  await expect(pane.getByText("Red it is.")).toHaveCount(0);
  await expect(pane.getByTestId("assistant-message")).toHaveCount(1);

  // Commit, then chat with the committed revision on the agent's Chat tab.
  await page.getByLabel("Commit message").fill("Colour picker with a client tool");
  await page.getByRole("button", { name: /^Commit/ }).click();
  await expect(page.getByTestId("commit-status")).toContainText("Committed version 2");
  await page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Chat" }).click();
  await expect(page).toHaveURL(`${editorUrl}/chat`);
  await expect(page.getByLabel("Chat with")).toHaveValue("latest");

  // Stop: the model never answers; the person stops waiting and can send again.
  await scriptModel({ kind: "hang" });
  const composer = page.getByLabel("Message the agent");
  await composer.fill("Are you there?");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText("Waiting for the agent…")).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);

  await scriptModel({ kind: "reply", text: "Committed and listening." });
  await composer.fill("Hello again");
  await composer.press("Enter");
  await expect(page.getByText("Committed and listening.")).toBeVisible();
  expect(JSON.stringify((await modelRequests()).at(-1)!.body)).toContain("Draft instruction 7f3a.");
  await page.screenshot({ path: `${SCREENSHOTS}/chat-page.png` });

  // At a phone's width the chat page still fits.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByText("Committed and listening.")).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SCREENSHOTS}/chat-page-390.png` });
});
