import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";

const REDIRECT = "http://127.0.0.1:33418/callback";

test("the MCP consent page: a signed-in owner allows a registered client, which gets a code it exchanges with PKCE", async ({
  page,
  baseURL,
}) => {
  const registered = await page.request.post("/api/oauth/register", {
    data: { client_name: "Browser Test Client", redirect_uris: [REDIRECT] },
  });
  expect(registered.status()).toBe(201);
  const { client_id } = await registered.json();
  const me = await page.request.get("/api/trpc/account.me");
  const projectId: string = (await me.json()).result.data.json.current.projectId;

  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: "xyz-state",
    scope: "read run",
    resource: `${baseURL}/api/mcp/${projectId}`,
  });
  // The client's own listener: the browser lands here with the code.
  await page.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, body: "You can close this tab." }));
  await page.goto(`/oauth/authorize?${query}`);
  await expect(page.getByRole("heading", { name: "Allow Browser Test Client?" })).toBeVisible();
  await expect(page.getByRole("list", { name: "What it may do" }).getByRole("listitem")).toHaveCount(2);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(`${REDIRECT}**`);
  const landed = new URL(page.url());
  expect(landed.searchParams.get("state")).toBe("xyz-state");
  const code = landed.searchParams.get("code")!;
  expect(code).toMatch(/^mcpac_/);

  const token = await page.request.post("/api/oauth/token", {
    form: { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id },
  });
  expect(token.status()).toBe(200);
  expect(await token.json()).toMatchObject({ token_type: "Bearer", scope: "read run" });
});

test("the consent page explains a request it cannot serve instead of redirecting", async ({ page }) => {
  await page.goto("/oauth/authorize?response_type=code&client_id=nope");
  await expect(page.getByRole("heading", { name: "This authorization request cannot be used" })).toBeVisible();
});
