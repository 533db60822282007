import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { codeBlocks, manualPages, ROOT } from "./manual-pages";

/**
 * The OpenAI-compatible API page's ```ts block (with the official `openai` package) runs as
 * written, by tsx in a child process, against a live server where the greeter is deployed to
 * production. The ```python block is not run: the Python `openai` package is not installed here.
 */
const TS_BLOCKS = manualPages()
  .filter((page) => page.file === "docs/openai-compatible-api.md")
  .flatMap((page) => codeBlocks(page, "ts"));

let t: TestApp;
let server: RunningServer;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-readme", baseUrl: model.baseUrl } } });
  ({ key } = await t.newProject());
  server = await serveOverHttp(t);
  const agent = {
    instructions: { agents_md: "Greet the user in one short sentence." },
    llm: { model: "openai/gpt-5-mini" },
    tools: [],
  };
  const created = await t.call("POST", "/api/workflows/", {
    key,
    body: { workflow: { slug: "greeter", name: "Greeter", data: { parameters: { agent } } } },
  });
  expect(created.status).toBe(200);
  const deployed = await t.call("POST", "/api/workflows/revisions/deploy", {
    key,
    body: { workflow_ref: { slug: "greeter" }, environment_ref: { slug: "production" } },
  });
  expect(deployed.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await model.close();
});

it("the manual's TypeScript snippet runs against a live server", async () => {
  expect(TS_BLOCKS).toHaveLength(1);
  model.script(
    { kind: "reply", text: "Hello from the greeter!" },
    { kind: "reply", text: "Streamed hello.", chunks: 3 },
    { kind: "reply", text: "Hello once more." },
  );
  // Inside the repository, so that `openai` resolves from its node_modules.
  const dir = mkdtempSync(path.join(ROOT, ".readme-snippet-"));
  try {
    const file = path.join(dir, "snippet.mts");
    writeFileSync(file, TS_BLOCKS[0].replaceAll("http://localhost:3000", server.origin));
    const { stdout } = await promisify(execFile)(path.join(ROOT, "node_modules/.bin/tsx"), [file], {
      env: { PATH: process.env.PATH, NODE_ENV: "test", KEY: key },
      timeout: 30_000,
    });
    expect(stdout).toBe("Hello from the greeter!\nStreamed hello.\nHello once more.\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(model.requests).toHaveLength(3);
  expect(JSON.stringify(model.requests[2].body.input)).toContain("Streamed hello.");
});
