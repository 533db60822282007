import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { ADDITIONS, arithmeticModel, createEntity, evaluationApp, startWorker } from "./eval-fixtures";

let t: TestApp;
let model: ScriptedModelServer;
let server: RunningServer;
let worker: { stop(): Promise<void> };
let key: string;

const prompt = (content: string) => ({
  parameters: { prompt: { messages: [{ role: "user", content }], llm_config: { model: "openai/gpt-5-mini" } } },
});

beforeAll(async () => {
  model = await startScriptedModelServer();
  // Wrong for a = 3: 4 of 5 right (0.8).
  model.respondWith(arithmeticModel((a) => a === 3));
  t = await evaluationApp(model);
  ({ key } = await t.newProject());
  server = await serveOverHttp(t);
  worker = startWorker(t);
  await createEntity(t, key, "testsets", "testset", { slug: "sums", data: { testcases: ADDITIONS.slice(0, 5) } });
  await createEntity(t, key, "evaluators", "evaluator", {
    slug: "exact",
    data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
  });
  const app = (await createEntity(t, key, "applications", "application", {
    slug: "adder",
    data: prompt("Add {{a}} and {{b}}."),
  })) as { variant_id?: string } & Awaited<ReturnType<typeof createEntity>>;
  // The good revision runs in production; the latest one words the prompt so the model cannot add.
  expect(
    (
      await t.call("POST", "/api/applications/revisions/deploy", {
        key,
        body: { application_ref: { slug: "adder" }, environment_ref: { slug: "production" } },
      })
    ).status,
  ).toBe(200);
  const commit = await t.call("POST", "/api/applications/revisions/commit", {
    key,
    body: {
      application_revision_commit: {
        application_variant_id: app.variant_id,
        message: "reword",
        data: prompt("Sum {{a}} plus {{b}}."),
      },
    },
  });
  expect(commit.status, JSON.stringify(commit.body)).toBe(200);
});
afterAll(async () => {
  await worker.stop();
  await server.close();
  await t.close();
  await model.close();
});

async function gate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "server/evaluations/cli/main.ts", "--url", server.origin, ...args],
    {
      env: { PATH: process.env.PATH, NODE_ENV: "test", SERVICE_API_KEY: key },
      timeout: 60_000,
    },
  ).catch((error: { code: number; stdout: string; stderr: string }) => error);
  return { code: "code" in result ? result.code : 0, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run eval: the CI gate over HTTP", () => {
  it("passes when every mean score reaches --min-score, fails below it, and prints the table", async () => {
    // The latest revision is the reworded one the model cannot answer.
    const bad = await gate("--agent", "adder", "--testset", "sums", "--evaluator", "exact", "--min-score", "0.5");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/exact\s+0\.000\s+FAIL/);
    expect(bad.stderr).toContain("below --min-score 0.5");
  });

  it("against a baseline environment: fails when the latest revision scores below what production runs", async () => {
    const result = await gate(
      "--agent",
      "adder",
      "--testset",
      "sums",
      "--evaluator",
      "exact",
      "--baseline",
      "production",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/exact\s+0\.000\s+0\.800\s+-0\.800\s+FAIL/);
    expect(result.stderr).toContain("below the production baseline 0.800");
  });

  it("passes once the latest revision is as good as the baseline; usage errors exit 2", async () => {
    const app = (
      await t.call("POST", "/api/simple/applications/query", { key, body: { application: { slug: "adder" } } })
    ).body.applications[0];
    await t.call("POST", "/api/applications/revisions/commit", {
      key,
      body: {
        application_revision_commit: {
          application_variant_id: app.variant_id,
          message: "fix",
          data: prompt("Add {{a}} and {{b}}."),
        },
      },
    });
    const good = await gate(
      "--agent",
      "adder",
      "--testset",
      "sums",
      "--evaluator",
      "exact",
      "--baseline",
      "production",
      "--min-score",
      "0.75",
    );
    expect(good.stderr).toBe("");
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/exact\s+0\.800\s+0\.800\s+0\.000\s+ok/);
    expect((await gate("--testset", "sums")).code).toBe(2);
  });
});
