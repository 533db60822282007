import type { Page, TestInfo } from "@playwright/test";

/** A screenshot of the viewport in the test's output folder, attached to its report (kept as an artifact). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}
