import { expect, test } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { modelRequests, scriptModel } from "./model-script";
import { screenshot } from "./screenshot";

test.describe.configure({ timeout: 150_000 });

// Every bash call needs a person's approval; the command appends to a file, so a second run would show twice.
const template = {
  instructions: { agents_md: "Keep count. Approval instruction 5e1c." },
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [{ type: "builtin", name: "bash" }],
  runner: { permissions: { default: "ask" } },
};

test("chat with approvals: approve runs the tool once, deny is denied; the session is kept and reopened; its trace shows the conversation and opens back in the chat", async ({
  page,
}, testInfo) => {
  await createAgentFromList(page, `Approver ${Date.now().toString(36)}`);
  await expect(page.getByTestId("current-version")).toHaveText("v1");
  await page.getByRole("navigation", { name: "Editor view" }).getByRole("link", { name: "JSON" }).click();
  await page.getByLabel("Agent template (JSON)").fill(JSON.stringify(template, null, 2));

  await scriptModel(
    {
      kind: "reply",
      text: "I will count.",
      toolCalls: [{ id: "call_count", name: "bash", input: { command: "echo run >> count.txt; cat count.txt" } }],
    },
    { kind: "reply", text: "Counted once." },
  );
  await page.getByRole("button", { name: "Show chat panel" }).click();
  const pane = page.getByRole("complementary", { name: "Chat" });
  const composer = pane.getByLabel("Message the agent");
  await composer.fill("Count the runs for me");
  await composer.press("Enter");

  // The turn pauses: a card with the tool and its input, Approve and Deny.
  const first = pane.getByTestId("tool-call").first();
  await expect(first).toHaveAttribute("data-state", "approval-requested");
  await expect(first).toContainText("bash");
  await expect(first).toContainText("Needs approval");
  await expect(first).toContainText('"command": "echo run >> count.txt; cat count.txt"');
  const approve = first.getByRole("button", { name: "Approve" });
  // Keyboard: Tab reaches Deny, then Approve; Enter presses it. The focus ring is visible.
  await first.getByRole("button", { name: "Deny" }).focus();
  await page.keyboard.press("Tab");
  await expect(approve).toBeFocused();
  expect(await approve.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");
  await screenshot(page, testInfo, "approval-card");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, testInfo, "approval-card-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await approve.focus();
  await page.keyboard.press("Enter");

  // The turn resumes: the server runs the tool once, the model answers.
  await expect(pane.getByText("Counted once.")).toBeVisible();
  await expect(first).toHaveAttribute("data-state", "output-available");
  await expect(first).toContainText("Done");
  expect(await first.locator("pre").nth(1).textContent()).toBe("run\n");
  const resumed = JSON.stringify((await modelRequests()).at(-1)!.body);
  expect(resumed).toContain('"function_call_output"');
  expect(resumed).toContain("run\\n");
  expect(resumed).not.toContain("run\\nrun");

  // Deny: the tool never runs, the card says so, the model is told.
  await scriptModel(
    {
      kind: "reply",
      text: "Deleting.",
      toolCalls: [{ id: "call_rm", name: "bash", input: { command: "rm count.txt" } }],
    },
    { kind: "reply", text: "Understood, I will not delete it." },
  );
  await composer.fill("Now delete the file");
  await composer.press("Enter");
  const second = pane.getByTestId("tool-call").nth(1);
  await expect(second).toHaveAttribute("data-state", "approval-requested");
  await second.getByRole("button", { name: "Deny" }).focus();
  await page.keyboard.press("Enter");
  await expect(pane.getByText("Understood, I will not delete it.")).toBeVisible();
  await expect(second).toHaveAttribute("data-state", "output-denied");
  await expect(second).toContainText("Denied");
  expect(JSON.stringify((await modelRequests()).at(-1)!.body)).toContain("denied");
  await screenshot(page, testInfo, "approval-approved-and-denied");

  // The session is kept on the server: listed, and reopened after a reload with its messages.
  const sessions = pane.getByLabel("Chat session");
  await expect(sessions.locator("option")).toHaveCount(2);
  await expect(sessions.locator("option").nth(1)).toContainText("Count the runs for me");
  const traceLink = pane
    .getByTestId("turn-footer")
    .last()
    .getByRole("link", { name: /Trace [0-9a-f]{8}/ });
  const traceHref = await traceLink.getAttribute("href");
  await page.reload();
  const paneAgain = page.getByRole("complementary", { name: "Chat" });
  await expect(paneAgain.getByText("Try the template as it is in the editor")).toBeVisible();
  const sessionsAgain = paneAgain.getByLabel("Chat session");
  await expect(sessionsAgain.locator("option")).toHaveCount(2);
  await sessionsAgain.selectOption({ index: 1 });
  await expect(paneAgain.getByTestId("user-message").first()).toHaveText("Count the runs for me");
  await expect(paneAgain.getByText("Understood, I will not delete it.")).toBeVisible();
  await expect(paneAgain.getByTestId("tool-call").nth(1)).toHaveAttribute("data-state", "output-denied");
  await screenshot(page, testInfo, "session-reopened");
  await paneAgain.getByRole("button", { name: "New chat" }).click();
  await expect(paneAgain.getByTestId("user-message")).toHaveCount(0);
  await expect(sessionsAgain).toHaveValue("");

  // The last turn's trace: the run's conversation rendered as a chat, a model call's own messages.
  await page.goto(traceHref!);
  const details = page.getByTestId("span-details");
  await expect(details.getByTestId("trace-messages")).toContainText("Now delete the file", { timeout: 20_000 });
  await expect(details.getByTestId("trace-messages")).toContainText("Understood, I will not delete it.");
  await expect(details.getByTestId("trace-messages").getByTestId("tool-call").first()).toContainText("bash");
  await screenshot(page, testInfo, "trace-conversation");
  await page.getByTestId("span-row").filter({ hasText: "chat gpt-5-mini" }).first().getByRole("link").click();
  await expect(details.getByRole("heading", { name: "Messages" })).toBeVisible();
  await expect(details.getByTestId("trace-messages")).toContainText("Count the runs for me");

  // Open in chat: the agent's chat page with that run's session.
  await page.getByRole("link", { name: "Open in chat" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}\/variants\/[0-9a-f-]{36}\/chat\?trace=[0-9a-f]{32}$/);
  await expect(page.getByTestId("user-message").first()).toHaveText("Count the runs for me");
  await expect(page.getByText("Understood, I will not delete it.")).toBeVisible();
  await expect(page.getByLabel("Chat session")).not.toHaveValue("");
  await screenshot(page, testInfo, "open-in-chat");

  // The Runs tab: each answer is a run that continues the paused run before it (its lineage).
  await page.goto(page.url().replace(/\/chat\?.*$/, "/runs"));
  const rows = page.getByTestId("run-row");
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: "Continues a paused run" })).toHaveCount(2);
  // Newest first: answer, request, answer, request; each answer names the paused run below it.
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-status")))).toEqual([
    "finished",
    "paused",
    "finished",
    "paused",
  ]);
  const continues = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-continues")));
  expect(continues.map(Boolean)).toEqual([true, false, true, false]);
  expect(continues[0]).not.toBe(continues[2]);
  await screenshot(page, testInfo, "runs-lineage");
});
