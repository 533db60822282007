import { expect, test } from "@playwright/test";
import { scriptModel } from "./model-script";
import { mutate } from "./trpc";

test.describe.configure({ timeout: 150_000 });

test("Connect: expose an agent's production deploy, read what to paste into MCP and A2A clients, test the A2A door, see the run as A2A", async ({
  page,
  request,
}) => {
  const created = await mutate(request, "agents.create", { name: `Connect ${Date.now().toString(36)}` });
  const template = created.revision.data.parameters.agent;
  const committed = await mutate(request, "agents.commit", {
    variantId: created.variant.id,
    template: { ...template, llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] },
    message: "On the scripted model",
  });
  await mutate(request, "agents.deploy", { revisionId: committed.revision.id, environment: "production" });
  const slug = created.agent.slug as string;
  const base = `/agents/${created.agent.id}/variants/${created.variant.id}`;

  await page.goto(`${base}/connect`);
  await expect(
    page.getByRole("navigation", { name: "Agent views" }).getByRole("link", { name: "Connect" }),
  ).toHaveAttribute("aria-current", "page");
  const production = page.getByRole("region", { name: "Connect production" });
  await expect(production).toContainText("Deployed");
  await expect(production).toContainText("Not exposed");
  await expect(production.getByText("Claude Desktop")).toHaveCount(0);

  await production.getByRole("button", { name: "Expose" }).click();
  await expect(production).toContainText("Exposed");
  const name = `${slug}@production`;
  const urls = production.getByTestId("connect-url");
  await expect(urls.first()).toContainText(/\/api\/mcp\/[0-9a-f-]{36}$/);
  await expect(urls.nth(1)).toContainText(`/services/a2a/v0/`);
  await expect(urls.nth(1)).toContainText(`${name}/.well-known/agent-card.json`);
  for (const client of ["Claude Desktop", "Cursor", "VS Code"])
    await expect(production.getByText(client)).toBeVisible();
  await production.getByText("VS Code").click();
  await expect(production.getByText('"type": "http"')).toBeVisible();

  // The test button calls the A2A door and shows the agent's answer.
  await scriptModel({ kind: "reply", text: "Guten Tag from the door." });
  await production.getByLabel("Test message").fill("Say hello");
  await production.getByRole("button", { name: "Test over A2A" }).click();
  const answer = production.getByRole("status", { name: "A2A answer" });
  await expect(answer).toContainText("Guten Tag from the door.", { timeout: 60_000 });
  await expect(answer).toContainText("completed");

  // The call is a run of the agent, labelled by its door on the Runs tab.
  await answer.getByRole("link", { name: "on the Runs tab" }).click();
  const rows = page.getByTestId("run-row");
  await expect(rows.first()).toHaveAttribute("data-origin", "a2a", { timeout: 20_000 });
  await expect(rows.first()).toContainText("A2A");

  // The Runs tab filters by door: A2A keeps the call, MCP has none of this agent's runs.
  await page.getByLabel("Door").selectOption("a2a");
  await expect(page).toHaveURL(/door=a2a/);
  await expect(rows.first()).toHaveAttribute("data-origin", "a2a");
  await page.getByLabel("Door").selectOption("mcp");
  await expect(page).toHaveURL(/door=mcp/);
  await expect(page.getByText("No runs through MCP")).toBeVisible();
  await expect(rows).toHaveCount(0);

  // The project's Connect page lists the exposed agent with its A2A card, beside the one MCP endpoint.
  await page.goto("/connect");
  await expect(page.getByRole("heading", { name: "Connect", level: 1 })).toBeVisible();
  const listed = page.getByRole("listitem", { name });
  await expect(listed).toContainText("at production");
  await expect(listed.getByTestId("connect-url").first()).toContainText(`${name}/.well-known/agent-card.json`);
  await expect(page.getByRole("region", { name: "MCP server" }).getByTestId("connect-url")).toContainText(
    /\/api\/mcp\/[0-9a-f-]{36}$/,
  );

  // Stop exposing: the snippets go away.
  await page.goto(`${base}/connect`);
  const again = page.getByRole("region", { name: "Connect production" });
  await again.getByRole("button", { name: "Stop exposing" }).click();
  await expect(again).toContainText("Not exposed");
  await expect(again.getByText("Claude Desktop")).toHaveCount(0);
});
