import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { ownerStatePath } from "./e2e/owner";
import { modelControlPort, modelPort } from "./e2e/ports";
import { webhookCertificate } from "./e2e/webhook-certificate";

/**
 * Browser tests against a production build. Browsers cannot be downloaded here, so Playwright
 * drives Debian's Chromium (`apt-get install chromium`).
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const MODEL_PORT = modelPort();
const BASE_URL = `http://127.0.0.1:${PORT}`;

// E2E_REUSE_BUILD=1 starts the last build in .next-e2e instead of building again (fast reruns).
const build = process.env.E2E_REUSE_BUILD ? "" : "npm run build && ";

// A fresh embedded database per run. Set once in the runner process; workers inherit the env.
process.env.E2E_DATA_DIR ??= path.join(".data", `e2e-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
const webhookCa = webhookCertificate().certFile;

const browser = {
  ...devices["Desktop Chrome"],
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  globalTeardown: "./e2e/global-teardown.ts",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    // Creates the owner account through the UI first; every other spec runs signed in as it.
    { name: "accounts", testMatch: /accounts\.spec\.ts/, use: browser },
    {
      name: "chromium",
      testIgnore: /accounts\.spec\.ts/,
      dependencies: ["accounts"],
      use: { ...browser, storageState: ownerStatePath() },
    },
  ],
  webServer: [
    {
      // The scripted model server (tests/helpers/scripted-model-server.ts) the app's OpenAI calls go to.
      command: "npx tsx e2e/model-server.ts",
      url: `http://127.0.0.1:${modelControlPort()}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      // Its own build directory, so a parallel `next build` or dev server is never clobbered.
      command: `${build}npm run start -- -p ${PORT} -H 127.0.0.1`,
      url: `${BASE_URL}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        // E2E_DIST_DIR lets two test runs build side by side.
        NEXT_DIST_DIR: process.env.E2E_DIST_DIR ?? ".next-e2e",
        NEXT_TELEMETRY_DISABLED: "1",
        // Always the embedded database, in a directory no other run uses; empty means unset.
        DATABASE_URL: "",
        DATA_DIR: dataDir,
        PGLITE_DIR: path.join(dataDir, "pglite"),
        // The operator's key and base URL: chat turns go to the scripted model server.
        OPENAI_API_KEY: "sk-e2e-scripted",
        OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`,
        // Stored connections the specs add point at the same loopback model server, and webhooks
        // at the specs' HTTPS receiver on loopback, whose self-signed certificate the app trusts.
        EGRESS_ALLOWLIST: "127.0.0.1",
        NODE_EXTRA_CA_CERTS: webhookCa,
      },
    },
  ],
});
