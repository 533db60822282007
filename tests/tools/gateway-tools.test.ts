import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { onRunFinished, type RunRecord } from "@/server/agent-runs";
import type { NativeEvent } from "@/server/streams";
import { runsRecorded } from "../helpers/after-runs";
import { invokeOver, type FormatName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { startFakeComposio } from "./fake-composio";

const COMPOSIO_KEY = "ak_composio-secret-7f3a9c";
let app: TestApp;
let bare: TestApp;
let live: RunningServer;
let bareLive: RunningServer;
let model: ScriptedModelServer;
let composio: Awaited<ReturnType<typeof startFakeComposio>>;
let key: string;
let bareKey: string;
const records: RunRecord[] = [];

beforeAll(async () => {
  model = await startScriptedModelServer();
  composio = await startFakeComposio(COMPOSIO_KEY);
  const agentRuns = { ...loadConfig({}).agentRuns, maxRetries: 0 };
  const providerEnv = { openai: { key: "sk-gateway", baseUrl: model.baseUrl } };
  app = await createTestApp({
    agentRuns,
    providerEnv,
    gateways: loadConfig({ COMPOSIO_API_KEY: COMPOSIO_KEY, COMPOSIO_BASE_URL: `${composio.url}/` }).gateways,
  });
  bare = await createTestApp({ agentRuns, providerEnv });
  live = await serveOnLoopback(app.handle);
  bareLive = await serveOnLoopback(bare.handle);
  ({ key } = await app.newProject());
  ({ key: bareKey } = await bare.newProject());
  onRunFinished((record) => void records.push(record));
});
afterAll(async () => {
  await live.close();
  await bareLive.close();
  await app.close();
  await bare.close();
  await model.close();
  await composio.close();
});

const llm = { provider: "openai", model: "gpt-5-mini" };
const ISSUE = { type: "gateway", integration: "github", action: "create_issue", connection: "ca_github_1" };
const POST = {
  type: "gateway",
  provider: "composio",
  integration: "slack",
  action: "SLACK_SEND_MESSAGE",
  connection: "ca_slack_1",
  name: "post",
};
const agent = (tools: unknown[]) => ({ llm, tools, runner: { permissions: { default: "allow" } } });
const body = (tools: unknown[]) => ({
  data: { inputs: { messages: [{ role: "user", content: "file it" }] }, parameters: { agent: agent(tools) } },
});

describe("gateway tools through the Composio provider", () => {
  it.each(["native", "ui_sdk"] as const)(
    "the action's schema reaches the model, calls run as the connected account, failures are tool errors, the key goes nowhere (%s)",
    async (format: FormatName) => {
      model.script(
        {
          kind: "reply",
          toolCalls: [
            { id: "g_ok", name: "github_create_issue", input: { title: "Bug" } },
            { id: "g_fail", name: "github_create_issue", input: { title: "fail" } },
            { id: "g_500", name: "github_create_issue", input: { title: "boom" } },
            { id: "g_post", name: "post", input: { channel: "C1", text: "hi" } },
          ],
        },
        { kind: "reply", text: "Filed." },
      );
      const before = model.requests.length;
      const calls = composio.calls.length;
      const o = await invokeOver(live.origin, key, "sse", format, body([ISSUE, POST]));
      expect(o.status, JSON.stringify(o.batch)).toBe(200);

      const sentTools = model.requests[before].body.tools as Array<{
        name: string;
        description: string;
        parameters: any;
      }>;
      const issue = sentTools.find((t) => t.name === "github_create_issue")!;
      expect(issue.description).toBe("Creates an issue in a GitHub repository.");
      expect(issue.parameters).toMatchObject({ properties: { title: { type: "string" } }, required: ["title"] });
      expect(sentTools.find((t) => t.name === "post")!.parameters).toMatchObject({
        properties: { channel: { type: "string" } },
        required: ["channel", "text"],
      });

      const executed = composio.calls.slice(calls).filter((c) => c.method === "POST");
      expect(executed.find((c) => c.body.arguments.title === "Bug")).toMatchObject({
        path: "/api/v3/tools/execute/GITHUB_CREATE_ISSUE",
        apiKey: COMPOSIO_KEY,
        body: { connected_account_id: "ca_github_1", arguments: { title: "Bug" }, version: "20250905_00" },
      });
      expect(executed.find((c) => c.path.endsWith("SLACK_SEND_MESSAGE"))?.body).toMatchObject({
        connected_account_id: "ca_slack_1",
        arguments: { channel: "C1", text: "hi" },
      });

      const results: Record<string, { output: unknown; isError: boolean }> =
        format === "native"
          ? Object.fromEntries(
              o
                .events!.filter((e): e is Extract<NativeEvent, { type: "tool_result" }> => e.type === "tool_result")
                .map((e) => [e.id, { output: e.output, isError: Boolean(e.isError) }]),
            )
          : Object.fromEntries(
              o
                .chunks!.filter((c) => c.type.startsWith("tool-output-"))
                .map((c) => [
                  c.toolCallId,
                  { output: c.output ?? c.errorText, isError: c.type === "tool-output-error" },
                ]),
            );
      expect(results.g_ok).toEqual({
        output: { number: 42, echo: { title: "Bug" }, account: "ca_github_1" },
        isError: false,
      });
      expect(results.g_fail.isError).toBe(true);
      expect(String(results.g_fail.output)).toContain("Repository not found or access denied");
      expect(results.g_500.isError).toBe(true);
      expect(String(results.g_500.output)).toContain("Composio answered 500: Internal error");
      expect(results.g_post.isError).toBe(false);

      // The run's record and its spans are written a moment after the answer: awaited.
      const traceId = o.headers.get("x-svc-trace-id")!;
      await runsRecorded(app.context);
      expect(records.map((r) => r.traceId)).toContain(traceId);
      const trace = await app.call("GET", `/api/traces/${traceId}`, { key });
      expect(trace.body.count).toBeGreaterThan(0);
      for (const seen of [o.events ?? o.chunks, model.requests, records, trace.body])
        expect(JSON.stringify(seen)).not.toContain(COMPOSIO_KEY);
    },
  );

  it.each(["native", "ui_sdk"] as const)(
    "refused before the run: no provider configured (naming the tool and the variable), an unknown provider, an action Composio does not have (%s)",
    async (format: FormatName) => {
      const before = model.requests.length;
      const unconfigured = await invokeOver(
        bareLive.origin,
        bareKey,
        "sse",
        format,
        body([{ ...ISSUE, name: "open_issue" }]),
      );
      expect(unconfigured.status).toBe(400);
      expect(unconfigured.batch).toMatchObject({ code: "gateway_not_configured" });
      expect(unconfigured.batch.detail).toContain('gateway tool "open_issue"');
      expect(unconfigured.batch.detail).toContain("COMPOSIO_API_KEY");
      const unknownProvider = await invokeOver(
        live.origin,
        key,
        "sse",
        format,
        body([{ ...ISSUE, provider: "zapier" }]),
      );
      expect(unknownProvider.status).toBe(400);
      expect(unknownProvider.batch.detail).toContain('provider "zapier"');
      const unknownAction = await invokeOver(
        live.origin,
        key,
        "sse",
        format,
        body([{ ...ISSUE, action: "delete_everything" }]),
      );
      expect(unknownAction.status).toBe(400);
      expect(unknownAction.batch).toMatchObject({ code: "gateway_action_not_found" });
      expect(unknownAction.batch.detail).toContain('gateway tool "github/delete_everything"');
      expect(unknownAction.batch.detail).toContain("GITHUB_DELETE_EVERYTHING");
      expect(model.requests.length).toBe(before);
    },
  );

  it("a wrong key is a clear refusal that does not echo it", async () => {
    const wrong = await createTestApp({
      providerEnv: { openai: { key: "sk-gateway", baseUrl: model.baseUrl } },
      gateways: { composio: { apiKey: "ak_wrong-key-123456", baseUrl: composio.url } },
    });
    try {
      const { key: wrongKey } = await wrong.newProject();
      const res = await wrong.call("POST", "/services/agent/v0/invoke", { key: wrongKey, body: body([ISSUE]) });
      expect(res.status).toBe(502);
      expect(res.body.detail).toContain("Composio answered 401");
      expect(JSON.stringify(res.body)).not.toContain("ak_wrong-key-123456");
    } finally {
      await wrong.close();
    }
  }, 60_000);
});
