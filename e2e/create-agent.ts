import { expect, type Page } from "@playwright/test";
import { actUntilVisible } from "./act-until-visible";

/** Creates an agent from the agents list and lands on its editor. */
export async function createAgentFromList(page: Page, name: string): Promise<void> {
  await page.goto("/agents");
  const dialog = page.getByRole("dialog", { name: "New agent" });
  // The button acts once the list has hydrated.
  await actUntilVisible(
    () =>
      page
        .getByRole("button", { name: /New agent/ })
        .first()
        .click({ timeout: 5_000 }),
    dialog,
  );
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}\/variants\/[0-9a-f-]{36}$/);
}
