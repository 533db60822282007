import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { runsRecorded } from "../helpers/after-runs";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

// Item 4 of the hardening issue: a run whose content holds text the database cannot store (a user
// message with NUL, a tool printing `x\0y`, a lone surrogate) is still traced, whatever its content.
let app: TestApp;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  const defaults = loadConfig({});
  app = await createTestApp({
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-x", baseUrl: model.baseUrl } },
  });
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

async function spanNamesOf(traceId: string): Promise<string> {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/api/traces/${traceId}`, { key });
  expect(res.status === 200 && res.body.count > 0, `trace ${traceId}: ${JSON.stringify(res.body)}`).toBe(true);
  return JSON.stringify(res.body);
}

it("a run whose message and tool output hold NUL and a lone surrogate is traced, its content made storable", async () => {
  model.script(
    {
      kind: "reply",
      text: "Printing \uD800.",
      toolCalls: [{ id: "c_nul", name: "bash", input: { command: "printf 'x\\000y'" } }],
    },
    { kind: "reply", text: "Done." },
  );
  const res = await app.call("POST", "/services/agent/v0/invoke", {
    key,
    body: {
      data: {
        inputs: { messages: [{ role: "user", content: "hi\u0000there \uDC00" }] },
        parameters: {
          agent: {
            llm: { model: "openai/gpt-5-mini" },
            tools: [{ type: "builtin", name: "bash" }],
            runner: { permissions: { default: "allow" } },
          },
        },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const trace = await spanNamesOf(res.headers.get("x-svc-trace-id")!);
  expect(trace).toContain("hithere \uFFFD");
  // The tool's output reached the run as it was printed, NUL included.
  expect(JSON.stringify(res.body)).toContain("x\\u0000y");
  expect(trace).toContain("execute_tool bash");
  expect(trace).toContain("Printing \uFFFD.");
  expect(trace).not.toContain("\\u0000");
}, 60_000);
