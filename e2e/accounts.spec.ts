import { expect, test, type Page } from "@playwright/test";
import { createAgentFromList } from "./create-agent";
import { OWNER, ownerStatePath } from "./owner";

const SCREENSHOTS = "test-results/screenshots";

test.describe.configure({ mode: "serial", timeout: 90_000 });

async function logIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Build, version and ship LLM agents");
}

test("the first visit creates the owner, who logs out and in again", async ({ page, request }) => {
  await page.goto("/agents");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Create the owner account" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/owner-sign-up.png` });

  await page.getByLabel("Name").fill(OWNER.name);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create owner account" }).click();
  await expect(page.getByText("password: Use at least 10 characters")).toBeVisible();
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create owner account" }).click();

  await expect(page.getByTestId("user-name")).toHaveText(OWNER.name);
  await expect(page.getByTestId("project-name")).toHaveText("Default project");
  await expect(page.getByTestId("project-role")).toHaveText("owner");
  // The home page's example uses the address the page was served from.
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId("quick-start-command")).toContainText(`curl ${origin}/api/keys`);

  // The owner account exists now: nobody else can claim it.
  expect((await request.get("/api/accounts/status")).ok()).toBe(true);
  expect(await (await request.get("/api/accounts/status")).json()).toMatchObject({ owner_exists: true });

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log in" }).click();
  // The refusal is the form's own alert (Next.js's route announcer is an alert too, always present).
  await expect(page.getByRole("alert").filter({ hasText: "That did not work" })).toBeVisible();

  await logIn(page, OWNER.email, OWNER.password);
  await page.context().storageState({ path: ownerStatePath() });
});

test("an invited viewer reads the project but cannot create an agent or commit", async ({ browser }) => {
  const ownerContext = await browser.newContext({ storageState: ownerStatePath() });
  const owner = await ownerContext.newPage();

  // The owner makes an agent to look at, and an invite link for a viewer.
  await createAgentFromList(owner, "Shared agent");
  const agentUrl = owner.url();

  await owner.goto("/settings");
  await owner.getByLabel("Invite as").selectOption("viewer");
  await owner.getByRole("button", { name: "Create invite link" }).click();
  const link = await owner.getByTestId("invite-link").textContent();
  expect(link).toMatch(/\/invite\/inv_/);
  await owner.screenshot({ path: `${SCREENSHOTS}/settings-members.png`, fullPage: true });

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link!);
  await expect(viewer.getByRole("heading", { name: "Join Default project" })).toBeVisible();
  await viewer.getByLabel("Name").fill("Vera Viewer");
  await viewer.getByLabel("Email").fill("vera@example.com");
  await viewer.getByLabel("Password").fill("a long viewer password");
  await viewer.getByRole("button", { name: "Create account and join" }).click();
  await expect(viewer.getByTestId("project-role")).toHaveText("viewer");

  // The link was single use.
  const reuse = await browser.newContext();
  const again = await reuse.newPage();
  await again.goto(link!);
  await expect(again.getByText("already used")).toBeVisible();
  await reuse.close();

  await viewer.goto("/agents");
  await expect(
    viewer
      .getByRole("cell", { name: /Shared agent/ })
      .or(viewer.getByText("Shared agent"))
      .first(),
  ).toBeVisible();
  const newAgent = viewer.getByRole("button", { name: /New agent/ }).first();
  await expect(newAgent).toBeDisabled();
  await expect(newAgent).toHaveAttribute("title", "Viewers cannot create agents");
  // Every page's create button says why it is off for a viewer; the empty state's copy too.
  await viewer.goto("/webhooks");
  const newWebhook = viewer.getByRole("button", { name: "New webhook" });
  await expect(newWebhook.first()).toBeVisible();
  for (const button of await newWebhook.all()) {
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("title", "Viewers cannot add webhooks");
  }

  await viewer.goto(agentUrl);
  await viewer.getByRole("heading", { level: 1, name: "Shared agent" }).waitFor();
  await expect(viewer.getByRole("button", { name: /^Commit/ })).toBeDisabled();
  await expect(viewer.getByTestId("commit-status")).toHaveText(/Viewers cannot commit/);
  await viewer.screenshot({ path: `${SCREENSHOTS}/viewer-editor.png` });

  // The owner sees the viewer among the members.
  await owner.reload();
  await expect(owner.getByRole("cell", { name: "vera@example.com" })).toBeVisible();
  await ownerContext.close();
  await viewerContext.close();
});
