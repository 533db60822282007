import { PROJECT_SETUPS } from "@/server/boot";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultAccount } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import type { RunningWorker } from "@/server/worker";
import { startBackgroundWorkers } from "@/server/boot";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from "../helpers/test-app";
import { codeBlocks, manualPages, unlistedPages } from "./manual-pages";

/**
 * Every ```bash block of the root README and the manual (`docs/`) is an example a reader will
 * paste: this runs them all, page after page in the index's order, in one shell (later blocks use
 * what earlier ones set), against a live server over HTTP. curl fails on any 4xx/5xx, so an
 * example that stops working fails here. ```sh blocks install, build or start servers, and are
 * not run.
 */
const BLOCKS = manualPages().flatMap((page) =>
  codeBlocks(page, "bash").map((block, i) => ({ label: `${page.file} block ${i + 1}`, block })),
);

let t: TestApp;
let server: RunningServer;
let workers: RunningWorker[];
let key: string;
let model: ScriptedModelServer;

beforeAll(async () => {
  // The operator's OpenAI key, as the manual's agent examples assume, served by a scripted model
  // server; the Ollama example's loopback URL is allowed as the manual says to allow it.
  model = await startScriptedModelServer();
  t = await createTestApp({
    providerEnv: { ...loadConfig({}).providerEnv, openai: { key: "sk-test-operator", baseUrl: model.baseUrl } },
    egressAllowlist: loadConfig({ EGRESS_ALLOWLIST: "localhost,127.0.0.1" }).egressAllowlist,
  });
  key = (await ensureDefaultAccount(t.database.db, PROJECT_SETUPS))!.secret;
  server = await serveOverHttp(t);
  // As the app process does: queued spans and webhook deliveries are worked off in the background.
  workers = startBackgroundWorkers(t.context);
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await server.close();
  await t.close();
  await model.close();
});

describe("the manual's examples", () => {
  it("has examples to run, on every page the index lists", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(10);
    expect(unlistedPages(), "docs/README.md lists every page of docs/").toEqual([]);
  });

  it("every ```bash block succeeds against a running server", async () => {
    const host = new URL(server.origin).host;
    const script = [
      "set -euo pipefail",
      // Fail on HTTP errors and keep the output quiet but the errors loud.
      'curl() { command curl --silent --show-error --fail-with-body "$@"; echo; }',
      ...BLOCKS.map(({ label, block }) => `echo "=== ${label}" >&2\n${block.replaceAll("localhost:3000", host)}`),
    ].join("\n");
    const result = await promisify(execFile)("bash", ["-c", script], {
      env: { PATH: process.env.PATH, NODE_ENV: "test", KEY: key, ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      timeout: 60_000,
    }).catch((error: { stdout: string; stderr: string; code: number }) => error);
    const failed = "code" in result && result.code !== 0;
    expect(failed ? `${result.stderr}\n${result.stdout}` : "ok").toBe("ok");
    // The examples really reached the server: the manual creates "my-app" and deploys it.
    const deployed = await t.call("POST", "/api/applications/revisions/retrieve", {
      key,
      body: { environment_ref: { slug: "staging" }, key: "my-app.revision" },
    });
    expect(deployed.status).toBe(200);
    expect(deployed.body.application_revision.data.parameters).toEqual({ x: 2 });
    // ... and the agent examples reached the model, through the operator's key.
    expect(model.requests.length).toBeGreaterThanOrEqual(3);
    expect(model.requests.every((r) => r.headers.authorization === "Bearer sk-test-operator")).toBe(true);
    // The compatibility examples: the simple evaluator was made and edited (revision 2).
    const polite = await t.call("POST", "/api/simple/evaluators/query", {
      key,
      body: { evaluator: { slug: "polite" } },
    });
    expect(polite.body.evaluators[0]).toMatchObject({
      tags: { team: "support" },
      version: "2",
      flags: { is_evaluator: true },
    });
  });
});
