import { expect, type Locator } from "@playwright/test";

/**
 * Acts (a click, a key) until `shown` is visible, for controls that do nothing until the page has
 * hydrated. An attempt acts only while `shown` is not visible yet, so a dialog or form that takes
 * longer to render on a loaded machine is never toggled closed or covered by a second act; each
 * attempt waits 5 s for it, and the whole gives up after a minute. Pass clicks a short `timeout`
 * (`{ timeout: 5_000 }`): a click whose control is now covered by what it opened then fails
 * fast, and the next attempt sees it shown.
 */
export async function actUntilVisible(act: () => Promise<unknown>, shown: Locator): Promise<void> {
  await expect(async () => {
    if (!(await shown.isVisible())) await act();
    await expect(shown).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}
