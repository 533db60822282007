import { expect, type Locator } from "@playwright/test";

/**
 * Resolves once React has hydrated `target`: its DOM node then carries React's props. A select
 * changed before that is set back to the server-rendered value when React hydrates it, so a test
 * that drives a form right after `page.goto` waits here first.
 */
export async function hydrated(target: Locator): Promise<void> {
  await expect
    .poll(() => target.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps$"))), {
      timeout: 30_000,
    })
    .toBe(true);
}
