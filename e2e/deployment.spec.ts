import { expect, test } from "@playwright/test";

// The browser tests run against `npm start`: the production server (server.ts) the Dockerfile ships.
test("the production server answers /api/health from the router and serves the static files it was built with", async ({
  page,
  request,
}) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok" });
  // Written by the node:http door in one piece; Next.js would have streamed it chunked.
  expect(Number(health.headers()["content-length"])).toBe((await health.body()).length);

  const assets: string[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/_next/static/")) assets.push(`${response.status()} ${response.url()}`);
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((a) => !a.startsWith("200 "))).toEqual([]);
});

test("a page on another site cannot make the signed-in owner's browser create a key", async ({ page, baseURL }) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  // A foreign page (opaque origin) posts a form-style request to the playground with the cookie.
  await page.goto("data:text/html,<title>elsewhere</title>");
  await page.evaluate(async (target) => {
    await fetch(`${target}/api/trpc/apiKeys.create`, {
      method: "POST",
      mode: "no-cors",
      credentials: "include",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ json: { name: "planted by another site" } }),
    }).catch(() => undefined);
  }, baseURL);
  await page.goto("/settings");
  await expect(page.getByTestId("api-key-row").first()).toBeVisible();
  await expect(page.getByTestId("api-key-row").filter({ hasText: "planted by another site" })).toHaveCount(0);
});
