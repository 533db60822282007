import { expect, type Page, type TestInfo } from "@playwright/test";

/** A screenshot of the viewport in the test's output folder, attached to its report (kept as an artifact). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/** No horizontal overflow at the page's width, light and dark; a screenshot of each, named `<name>-<scheme>`. */
export async function expectFits(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const seen = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(seen.scroll, `${name} overflows (${scheme})`).toBeLessThanOrEqual(seen.inner);
    await screenshot(page, testInfo, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
