import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultAccount } from "@/server/auth";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from "../helpers/test-app";

/**
 * Every ```bash block of the README is an example a reader will paste: this runs them all, in
 * order, in one shell (later blocks use what earlier ones set), against a live server over HTTP.
 * curl fails on any 4xx/5xx, so an example that stops working fails here. ```sh blocks install,
 * build or start servers, and are not run.
 */
const README = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
const BLOCKS = [...README.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

let t: TestApp;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  key = (await ensureDefaultAccount(t.database.db))!.secret;
  server = await serveOverHttp(t);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe("README examples", () => {
  it("has examples to run", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(4);
  });

  it("every ```bash block succeeds against a running server", async () => {
    const host = new URL(server.origin).host;
    const script = [
      "set -euo pipefail",
      // Fail on HTTP errors and keep the output quiet but the errors loud.
      'curl() { command curl --silent --show-error --fail-with-body "$@"; echo; }',
      ...BLOCKS.map((block, i) => `echo "=== README block ${i + 1}" >&2\n${block.replaceAll("localhost:3000", host)}`),
    ].join("\n");
    const result = await promisify(execFile)("bash", ["-c", script], {
      env: { PATH: process.env.PATH, NODE_ENV: "test", KEY: key, ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      timeout: 60_000,
    }).catch((error: { stdout: string; stderr: string; code: number }) => error);
    const failed = "code" in result && result.code !== 0;
    expect(failed ? `${result.stderr}\n${result.stdout}` : "ok").toBe("ok");
    // The examples really reached the server: the README creates "my-app" and deploys it.
    const deployed = await t.call("POST", "/api/applications/revisions/retrieve", {
      key,
      body: { environment_ref: { slug: "staging" }, key: "my-app.revision" },
    });
    expect(deployed.status).toBe(200);
    expect(deployed.body.application_revision.data.parameters).toEqual({ x: 2 });
    // The compatibility examples: the simple evaluator was made and edited (revision 2).
    const polite = await t.call("POST", "/api/simple/evaluators/query", { key, body: { evaluator: { slug: "polite" } } });
    expect(polite.body.evaluators[0]).toMatchObject({ tags: { team: "support" }, version: "2", flags: { is_evaluator: true } });
  });
});
