import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { runsRecorded } from "../helpers/after-runs";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { spansOf } from "../helpers/run-trace";
import { closedPort } from "../helpers/closed-port";

let app: TestApp;
let key: string;
let refusingPort: number;

beforeAll(async () => {
  refusingPort = await closedPort();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: {
      ...defaults.providerEnv,
      openai: { key: "sk-unreachable", baseUrl: `http://127.0.0.1:${refusingPort}/v1` },
    },
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
  });
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await app.close();
});

it("a provider that refuses the connection is reported as never reached, on the stream and on the trace's spans", async () => {
  const res = await app.call("POST", "/services/agent/v0/invoke", {
    key,
    body: {
      data: {
        inputs: { messages: [{ role: "user", content: "hello" }] },
        parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } },
      },
    },
  });
  expect(res.status).toBe(200);
  const said = JSON.stringify(res.body);
  expect(said).not.toContain("was lost before the reply finished");
  expect(said).toContain(`127.0.0.1:${refusingPort} refused the connection`);

  const traceId = res.headers.get("x-svc-trace-id")!;
  await runsRecorded(app.context);
  const trace = await app.call("GET", `/api/traces/${traceId}`, { key });
  const spans: any[] = trace.status === 200 && trace.body.count > 0 ? spansOf<any>(trace.body) : [];
  const root = spans.find((s) => s.span_name.startsWith("invoke_agent"));
  const chat = spans.find((s) => s.span_name.startsWith("chat "));
  for (const span of [root, chat]) {
    expect(span.status_code).toBe("STATUS_CODE_ERROR");
    expect(span.status_message).toContain("refused the connection");
    expect(span.events).toEqual([
      expect.objectContaining({
        name: "exception",
        attributes: expect.objectContaining({ "exception.message": span.status_message }),
      }),
    ]);
  }
});
