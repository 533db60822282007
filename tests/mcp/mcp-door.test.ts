import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiDoors } from "@/server/boot";
import { loadConfig } from "@/server/core/config";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { runsRecorded } from "../helpers/after-runs";
import { attribute, traceSpans } from "../helpers/run-trace";
import { serveOnLoopback, serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let projectId: string;
let revisionId: string;
const clients: Client[] = [];

const agent = (agentsMd: string) => ({
  instructions: { agents_md: agentsMd },
  llm: { model: "openai/gpt-5-mini" },
  tools: [],
});

const endpoint = (origin = live.origin) => new URL(`${origin}/api/mcp/${projectId}`);

async function connect(secret: string | undefined, options: { fetch?: typeof fetch; origin?: string } = {}) {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(endpoint(options.origin), {
    requestInit: secret ? { headers: { Authorization: `Bearer ${secret}` } } : undefined,
    fetch: options.fetch,
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function newKey(scopes: string[]): Promise<string> {
  const res = await app.call("POST", "/api/keys", { key, body: { name: scopes.join("+"), scopes } });
  expect(res.status).toBe(201);
  return res.body.api_key.key;
}

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-mcp", baseUrl: model.baseUrl } },
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
  });
  live = await serveOverHttp(app);
  ({ key, projectId } = await app.newProject("mcp"));
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: {
        slug: "greeter",
        name: "Greeter",
        description: "Greets in French",
        data: { parameters: { agent: agent("Greet in French.") } },
      },
    },
  });
  expect(created.status).toBe(200);
  revisionId = created.body.workflow_revision.id;
  const prompt = {
    messages: [
      { role: "system", content: "You are {{persona}}." },
      { role: "user", content: "Explain {{topic}} briefly." },
    ],
    llm_config: { model: "openai/gpt-4o-mini" },
  };
  expect(
    (
      await app.call("POST", "/api/applications/", {
        key,
        body: { application: { slug: "tutor", name: "Tutor", data: { parameters: { prompt } } } },
      })
    ).status,
  ).toBe(200);
  for (const [domain, ref] of [
    ["workflows", { workflow_ref: { slug: "greeter" } }],
    ["applications", { application_ref: { slug: "tutor" } }],
  ] as const) {
    const deployed = await app.call("POST", `/api/${domain}/revisions/deploy`, {
      key,
      body: { ...ref, environment_ref: { slug: "production" } },
    });
    expect(deployed.status).toBe(200);
  }
  const exposed = await app.call("PUT", "/api/exposure", {
    key,
    body: {
      exposures: [
        { kind: "agent", slug: "greeter", environment: "production" },
        { kind: "agent", slug: "greeter", environment: "staging", name: "greeter-preview" },
        { kind: "prompt", slug: "tutor", environment: "production", name: "tutor" },
      ],
    },
  });
  expect(exposed.status).toBe(200);
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await live.close();
  await app.close();
  await model.close();
});

describe("the MCP SDK's Streamable HTTP client", () => {
  it("lists each exposed, deployed agent as a tool with its input and output schema", async () => {
    const { client } = await connect(key);
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, prompts: {}, resources: {} });
    const { tools } = await client.listTools();
    // greeter-preview is exposed but not deployed to staging: not listed.
    expect(tools.map((tool) => tool.name)).toEqual(["greeter@production"]);
    expect(tools[0]).toMatchObject({
      title: "Greeter",
      description: "Greets in French",
      inputSchema: { type: "object", required: ["message"] },
      outputSchema: { type: "object", required: ["text", "status", "run_id", "session_id"] },
    });
  });

  it("calls the agent through invoke's path: structured output, a run of origin mcp, progress, the agent session continued", async () => {
    const { client } = await connect(key);
    model.script({ kind: "reply", text: "Bonjour !" }, { kind: "reply", text: "Encore bonjour." });
    const progress: string[] = [];
    const result = await client.callTool({ name: "greeter@production", arguments: { message: "Hi" } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "Bonjour !" }]);
    const output = result.structuredContent as Record<string, string>;
    expect(output).toMatchObject({ text: "Bonjour !", status: "finished", revision_id: revisionId, version: "1" });
    expect(progress).toContain("wrote text");
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Greet in French.");

    await runsRecorded(app.context);
    const run = await app.call("GET", `/services/agent/v0/runs/${output.run_id}`, { key });
    expect(run.body.run).toMatchObject({ origin: "mcp", status: "finished", session_id: output.session_id });
    // The trace records the door on its root span.
    const spans = await traceSpans(app, key, run.body.run.trace_id, 3);
    const root = spans.find((span) => span.span_name.startsWith("invoke_agent"))!;
    expect(attribute(root, "ag.meta.run.door")).toBe("mcp");

    const again = await client.callTool({
      name: "greeter@production",
      arguments: { message: "Again", session_id: output.session_id },
    });
    // The same agent session (workspace, approvals), as invoke's session_id.
    expect((again.structuredContent as Record<string, string>).session_id).toBe(output.session_id);
  });

  it("refuses unknown tools and bad arguments with MCP errors", async () => {
    const { client } = await connect(key);
    await expect(client.callTool({ name: "nobody@production", arguments: { message: "x" } })).rejects.toThrow(
      /No tool "nobody@production" is exposed/,
    );
    await expect(client.callTool({ name: "greeter@production", arguments: {} })).rejects.toThrow(/message/);
  });

  it("a client's cancellation cancels the run", async () => {
    const { client } = await connect(key);
    model.script({ kind: "hang" });
    const abort = new AbortController();
    const call = client.callTool({ name: "greeter@production", arguments: { message: "slow" } }, undefined, {
      signal: abort.signal,
    });
    await within(60_000, "the model request", model.nextRequest());
    const aborted = model.nextAbort();
    abort.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await within(60_000, "the upstream model request's abort", aborted);
    await runsRecorded(app.context);
    const runs = await app.call("GET", "/services/agent/v0/runs?origin=mcp", { key });
    expect(runs.body.runs[0]).toMatchObject({ status: "cancelled" });
  });

  it("answers a call without progress as one JSON body; a client that goes away mid-call cancels the run", async () => {
    const { transport } = await connect(key);
    const post = (id: number, signal?: AbortSignal) =>
      fetch(endpoint(), {
        method: "POST",
        signal,
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": transport.sessionId!,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "greeter@production", arguments: { message: "x" } },
        }),
      });
    model.script({ kind: "reply", text: "Entier." });
    const whole = await post(1);
    expect(whole.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await whole.json()).result.content).toEqual([{ type: "text", text: "Entier." }]);

    model.script({ kind: "hang" });
    const abort = new AbortController();
    const call = post(2, abort.signal).catch(() => undefined);
    await within(60_000, "the model request", model.nextRequest());
    const aborted = model.nextAbort();
    abort.abort();
    await call;
    await within(60_000, "the upstream model request's abort", aborted);
    await runsRecorded(app.context);
    const runs = await app.call("GET", "/services/agent/v0/runs?origin=mcp", { key });
    expect(runs.body.runs[0]).toMatchObject({ status: "cancelled" });
  });

  it("serves prompt applications as prompts rendered by the service's renderer", async () => {
    const { client } = await connect(key);
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: "tutor",
        arguments: [
          { name: "persona", required: true },
          { name: "topic", required: true },
        ],
      }),
    ]);
    const got = await client.getPrompt({ name: "tutor", arguments: { persona: "a patient tutor", topic: "tides" } });
    expect(got.messages).toEqual([
      { role: "user", content: { type: "text", text: "You are a patient tutor." } },
      { role: "user", content: { type: "text", text: "Explain tides briefly." } },
    ]);
    await expect(client.getPrompt({ name: "tutor", arguments: { persona: "x" } })).rejects.toThrow(/topic/);
  });

  it("serves deployed revisions' configuration as read-only resources", async () => {
    const { client } = await connect(key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      "deployed://production/agent/greeter",
      "deployed://production/prompt/tutor",
    ]);
    const read = await client.readResource({ uri: "deployed://production/agent/greeter" });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body).toMatchObject({
      slug: "greeter",
      environment: "production",
      revision_id: revisionId,
      data: { parameters: { agent: { instructions: { agents_md: "Greet in French." } } } },
    });
  });

  it("tells an open session list_changed when a deploy changes the tools", async () => {
    const { client } = await connect(key);
    let changed!: () => void;
    const notified = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    // The GET stream opens after initialize; a first list proves the session is live.
    await client.listTools();
    const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
      key,
      body: { workflow_ref: { slug: "greeter" }, environment_ref: { slug: "staging" } },
    });
    expect(deployed.status).toBe(200);
    await within(60_000, "notifications/tools/list_changed", notified);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["greeter@production", "greeter-preview"]);
  });

  it("applies the key's scopes: a read key lists but cannot call; no key is 401 with the resource metadata", async () => {
    const read = await newKey(["read"]);
    const { client } = await connect(read);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await expect(client.callTool({ name: "greeter@production", arguments: { message: "x" } })).rejects.toThrow(
      /tools\/call needs a key with the run agents scope/,
    );
    const run = await newKey(["run"]);
    model.script({ kind: "reply", text: "Salut." });
    const called = await (
      await connect(run)
    ).client.callTool({ name: "greeter@production", arguments: { message: "x" } });
    expect(called.content).toEqual([{ type: "text", text: "Salut." }]);

    const anonymous = await fetch(endpoint(), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${live.origin}/.well-known/oauth-protected-resource/api/mcp/${projectId}"`,
    );
    const other = await app.newProject("mcp-other");
    const foreign = await fetch(endpoint(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${other.key}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: "wrong_project" });
  });
});

describe("two instances behind one database", () => {
  let second: AppInstance;
  let secondLive: RunningServer;

  beforeAll(async () => {
    second = await anotherInstance(app);
    secondLive = await serveOnLoopback(createApiDoors(second.context).web);
  });
  afterAll(async () => {
    await secondLive.close();
    await second.close();
  });

  it("answer one session's requests in turn", async () => {
    const origins = [live.origin, secondLive.origin];
    const served: string[] = [];
    let turn = 0;
    // Each request of the session goes to the next instance.
    const alternate: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const origin = origins[turn++ % 2];
      served.push(origin);
      return fetch(`${origin}${url.pathname}${url.search}`, init);
    };
    const { client, transport } = await connect(key, { fetch: alternate });
    model.script({ kind: "reply", text: "Un." }, { kind: "reply", text: "Deux." });
    const first = await client.callTool({ name: "greeter@production", arguments: { message: "1" } });
    const next = await client.callTool({ name: "greeter@production", arguments: { message: "2" } });
    expect([first.content, next.content]).toEqual([[{ type: "text", text: "Un." }], [{ type: "text", text: "Deux." }]]);
    expect(new Set(served)).toEqual(new Set(origins));
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
