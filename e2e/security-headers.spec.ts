import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { scriptModel } from "./model-script";
import { mutate } from "./trpc";
import { hydrated } from "./hydrated";

/**
 * The playground under its Content-Security-Policy (docs/security-headers.md): another origin
 * cannot frame it, and markup planted through the API (agent names, span names and attributes,
 * testset cells, model output) never runs on a page that shows it, while the pages' own scripts
 * (Next.js's, the theme script) still do.
 */

const stamp = Date.now().toString(36);
// Both kinds: an element whose handler runs when inserted as HTML, and a script element.
const payload = (where: string) =>
  `${where} <img src=x onerror="window.__xss='${where}'"><script>window.__xss='${where}'</script>`;

interface Planted {
  agentPath: string;
  traceId: string;
  testsetId: string;
}
let planted: Planted;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const request = context.request;
  const agent = await mutate(request, "agents.create", { name: payload(`agent-${stamp}`) });
  const { key } = await mutate(request, "apiKeys.create", { name: `xss ${stamp}` });
  const headers = { authorization: `ApiKey ${key}` };
  const traceId = randomBytes(16).toString("hex");
  const ingest = await request.post("/api/tracing/spans/ingest", {
    headers,
    data: {
      spans: [
        {
          trace_id: traceId,
          span_id: "15f3df0731995245",
          span_name: payload(`span-${stamp}`),
          start_time: new Date().toISOString(),
          attributes: { note: payload(`attribute-${stamp}`) },
        },
      ],
    },
  });
  expect(ingest.status()).toBe(202);
  const testset = await request.post("/api/simple/testsets/", {
    headers,
    data: {
      testset: { slug: `xss-${stamp}`, data: { testcases: [{ question: payload(`cell-${stamp}`), answer: "4" }] } },
    },
  });
  expect(testset.status(), await testset.text()).toBe(200);
  // Ingest is acknowledged before it is stored: the trace's page needs it written.
  await expect
    .poll(async () => (await (await request.get(`/api/traces/${traceId}`, { headers })).json()).count, {
      timeout: 60_000,
    })
    .toBe(1);
  planted = {
    agentPath: `/agents/${agent.agent.id}/variants/${agent.variant.id}`,
    traceId,
    testsetId: (await testset.json()).testset.id,
  };
  await context.close();
});

/** Records CSP violations and uncaught errors; Playwright's init scripts are outside the page's policy. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  await page.addInitScript(() => {
    (window as any).__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as any).__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
    // The theme script (inline, with the nonce) must still run: it adds the stored theme's class.
    localStorage.setItem("playground:theme", "dark");
  });
  return problems;
}

/** Nothing planted ran; the only refusals were of planted markup; the page's own scripts ran. */
async function expectSafe(page: Page, problems: string[], shown: string) {
  await expect(page.getByText(shown, { exact: false }).first()).toBeVisible();
  expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
  const violations: string[] = await page.evaluate(() => (window as any).__violations);
  expect(
    violations.filter((v) => !v.includes("__xss")),
    page.url(),
  ).toEqual([]);
  expect(problems, page.url()).toEqual([]);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
}

test("another origin cannot frame the playground", async ({ page, baseURL }) => {
  const refusals: string[] = [];
  page.on("console", (message) => {
    if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refusals.push(message.text());
  });
  // Another origin on the same machine, a real server of its own: a page Playwright makes up
  // counts as public, and Chromium's private network rules would stop it before the policy.
  const attacker = createServer((_, res) =>
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(`<iframe src="${baseURL}/agents" width="800" height="600"></iframe>`),
  );
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  try {
    await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(refusals.join("\n")).toContain("frame-ancestors");
    const framed = page.frames().find((frame) => frame !== page.mainFrame());
    expect(
      await framed
        ?.locator("nav")
        .count()
        .catch(() => 0),
    ).toBe(0);
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }
  // The playground itself says so on every page and answer.
  const own = await page.request.get("/agents");
  expect(own.headers()["content-security-policy"]).toContain("frame-ancestors 'self'");
  expect(own.headers()["x-frame-options"]).toBe("SAMEORIGIN");
});

test("markup planted in names, spans, testsets and model output never runs", async ({ page }) => {
  test.setTimeout(90_000);
  const problems = await watch(page);
  const visits: [string, string][] = [
    ["/agents", `agent-${stamp}`],
    [planted.agentPath, `agent-${stamp}`],
    ["/traces", `span-${stamp}`],
    [`/traces/${planted.traceId}`, `span-${stamp}`],
    [`/testsets/${planted.testsetId}`, `cell-${stamp}`],
  ];
  for (const [path, shown] of visits) {
    await page.goto(path);
    await expectSafe(page, problems, shown);
  }
  // The span's attributes, opened from its trace.
  await page.goto(`/traces/${planted.traceId}`);
  await page.getByText(`span-${stamp}`).first().click();
  await expectSafe(page, problems, `attribute-${stamp}`);

  // Model output, streamed into the chat and then read back from the run's trace.
  await scriptModel({ kind: "reply", text: payload(`model-${stamp}`) });
  await page.goto(`${planted.agentPath}/chat`);
  await hydrated(page.getByLabel("Message the agent"));
  await page.getByLabel("Message the agent").fill("Say something");
  await page.getByLabel("Message the agent").press("Enter");
  await expectSafe(page, problems, `model-${stamp}`);
  await page.reload();
  await expectSafe(page, problems, `model-${stamp}`);
});
