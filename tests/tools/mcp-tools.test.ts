import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/server/core/config";
import { onRunFinished, type RunRecord } from "@/server/agent-runs";
import { createApiDoors } from "@/server/boot";
import type { NativeEvent } from "@/server/streams";
import { runsRecorded } from "../helpers/after-runs";
import { anotherInstance } from "../helpers/app-instance";
import { invokeOver, type FormatName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startMcpTestServer, startSilentServer, type McpTestServer } from "../helpers/mcp-test-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

const SECRET = "mcp-key-PLANTED-4f2a9c";
const CALL_TIMEOUT_MS = 400;
const CONNECT_TIMEOUT_MS = 800;
let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let mcp: McpTestServer;
let key: string;
const records: RunRecord[] = [];

beforeAll(async () => {
  model = await startScriptedModelServer();
  mcp = await startMcpTestServer({ secret: SECRET });
  // The MCP server listens on loopback, which the egress guard refuses unless allowlisted.
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
  app = await createTestApp({
    egressAllowlist,
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-mcp", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject());
  onRunFinished((record) => void records.push(record));
});
afterAll(async () => {
  await live.close();
  await app.close();
  await mcp.close();
  await model.close();
});

const server = (extra: Record<string, unknown> = {}, connection: Record<string, unknown> = {}) => ({
  name: "docs",
  connection: { url: mcp.url, ...connection },
  ...extra,
});
const agent = (mcps: unknown[], extra: Record<string, unknown> = {}) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [],
  mcps,
  runner: { permissions: { default: "allow" } },
  ...extra,
});
const body = (sessionId: string, template: unknown, messages: unknown[] = [{ role: "user", content: "go" }]) => ({
  session_id: sessionId,
  data: { inputs: { messages }, parameters: { agent: template } },
});
const results = (events: NativeEvent[]) =>
  Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.id, { output: e.output, isError: e.isError }]),
  );
const stop = (events: NativeEvent[]) => (events.at(-1) as { stopReason: string }).stopReason;
const offered = () =>
  model.requests
    .at(-1)!
    .body.tools.map((t: { name: string }) => t.name)
    .sort();
const invoke = (payload: unknown, format: FormatName = "native", origin = live.origin) =>
  invokeOver(origin, key, format === "native" ? "sse" : "sse", format, payload);

/**
 * One turn through an instance whose MCP time-outs are short, for the tests of those time-outs;
 * every other test keeps the defaults, which a connection on a loaded host does not run into.
 */
async function invokeWithTimeouts(mcp: { connectTimeoutMs: number; callTimeoutMs: number }, payload: unknown) {
  const short = await anotherInstance(app, { mcp });
  const server = await serveOnLoopback(createApiDoors(short.context).web);
  try {
    return await invoke(payload, "native", server.origin);
  } finally {
    await server.close();
    await short.close();
  }
}

describe("MCP servers (mcps[]) through the invoke route", () => {
  it("policy all offers every advertised tool as <server>__<tool>; results, tool errors and render come through the native stream", async () => {
    model.script(
      {
        kind: "reply",
        text: "Calling.",
        toolCalls: [
          { id: "c_echo", name: "docs__echo", input: { text: "hi" } },
          { id: "c_fail", name: "docs__fail", input: {} },
        ],
      },
      { kind: "reply", text: "Done." },
    );
    const o = await invoke(body("mcp-all", agent([server({}, { headers: { "X-Team": "blue" } })])));
    expect(o.status, JSON.stringify(o.batch)).toBe(200);
    const names = model.requests
      .at(-2)!
      .body.tools.map((t: { name: string }) => t.name)
      .sort();
    expect(names.filter((n: string) => !n.startsWith("docs__files_read_"))).toEqual([
      "docs__echo",
      "docs__fail",
      "docs__lookup",
      "docs__slow",
      "docs__whoami",
    ]);
    expect(names.find((n: string) => n.startsWith("docs__files_read_"))).toMatch(/^docs__files_read_[0-9a-f]{8}$/);
    expect(results(o.events!)).toEqual({
      c_echo: { output: "echo: hi", isError: false },
      c_fail: {
        output: 'Error: The tool "fail" of MCP server "docs" reported an error: the database is on fire',
        isError: true,
      },
    });
    const call = o.events!.find(
      (e) => e.type === "tool_call" && e.id === "c_echo" && Object.keys((e as { input: object }).input).length,
    );
    expect(call).toMatchObject({
      name: "docs__echo",
      input: { text: "hi" },
      render: { kind: "mcp", server: "docs", tool: "echo" },
    });
    expect(stop(o.events!)).toBe("stop");
    // Static headers are sent as given, on every request of the session.
    expect(mcp.requests.at(-1)!["x-team"]).toBe("blue");
  });

  it("the UI message stream shows the same calls, with server and tool in data-render", async () => {
    model.script(
      {
        kind: "reply",
        text: "Calling.",
        toolCalls: [
          { id: "u_echo", name: "docs__echo", input: { text: "ui" } },
          { id: "u_fail", name: "docs__fail", input: {} },
        ],
      },
      { kind: "reply", text: "Done." },
    );
    const o = await invoke(body("mcp-ui", agent([server()])), "ui_sdk");
    expect(o.status).toBe(200);
    expect(o.chunks!.find((c) => c.type === "tool-output-available" && c.toolCallId === "u_echo")).toMatchObject({
      output: "echo: ui",
    });
    expect(o.chunks!.find((c) => c.type === "tool-output-error" && c.toolCallId === "u_fail").errorText).toContain(
      "the database is on fire",
    );
    expect(o.chunks!.find((c) => c.type === "data-render" && c.data.toolCallId === "u_echo").data.render).toEqual({
      kind: "mcp",
      server: "docs",
      tool: "echo",
    });
    const parts = o.message!.parts.filter((p) => p.type === "tool-docs__echo");
    expect(parts).toHaveLength(1);
  });

  it("policy include offers only the named tools; a name the server does not advertise refuses the run, naming server and tool", async () => {
    model.script({ kind: "reply", text: "ok" });
    const o = await invoke(
      body("mcp-include", agent([server({ policy: { tools: { mode: "include", names: ["echo", "files.read"] } } })])),
    );
    expect(o.status).toBe(200);
    expect(offered().map((n: string) => n.replace(/_[0-9a-f]{8}$/, ""))).toEqual(["docs__echo", "docs__files_read"]);

    const missing = await invoke(
      body(
        "mcp-include",
        agent([server({ policy: { tools: { mode: "include", names: ["echo", "delete_everything"] } } })]),
      ),
    );
    expect(missing.status).toBe(400);
    expect(missing.batch.detail).toContain(
      'mcps[0].policy.tools.names: MCP server "docs" does not advertise "delete_everything"',
    );
    expect(missing.batch.detail).toContain("echo, fail, slow, whoami, lookup, files.read");
  });

  it("a sanitised name calls the tool under its own MCP name", async () => {
    const template = agent([server({ policy: { tools: { mode: "include", names: ["files.read"] } } })]);
    model.script({ kind: "reply", text: "ok" });
    await invoke(body("mcp-dotted", template));
    const [name] = offered();
    model.script(
      { kind: "reply", text: "Reading.", toolCalls: [{ id: "c_r", name, input: { path: "a.txt" } }] },
      { kind: "reply", text: "Done." },
    );
    const o = await invoke(body("mcp-dotted", template));
    expect(results(o.events!).c_r).toEqual({ output: "contents of a.txt", isError: false });
    expect(o.events!.find((e) => e.type === "tool_call" && e.id === "c_r")).toMatchObject({
      render: { kind: "mcp", server: "docs", tool: "files.read" },
    });
  });

  it("header secrets come from the vault at run time and never reach the stream, the model, the run record, the trace or the logs", async () => {
    const stored = await app.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: { header: { name: "mcp-key" }, secret: { kind: "secret", data: { value: SECRET } } },
    });
    expect(stored.status).toBe(201);
    const template = agent([
      server({}, { credentials: { type: "header_secret_refs", headers: { "X-Api-Key": "mcp-key" } } }),
    ]);
    const printed: unknown[] = [];
    const spies = [
      ...(["log", "error", "warn", "info"] as const).map((level) =>
        vi.spyOn(console, level).mockImplementation((...args) => void printed.push(args)),
      ),
      vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (printed.push(String(chunk)), true)),
      vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (printed.push(String(chunk)), true)),
    ];
    const seen: unknown[] = [];
    let traceId = "";
    const traceIds: (string | null)[] = [];
    try {
      for (const format of ["native", "ui_sdk"] as const) {
        model.script(
          { kind: "reply", text: "Checking.", toolCalls: [{ id: `w_${format}`, name: "docs__whoami", input: {} }] },
          { kind: "reply", text: "Authorized." },
        );
        const o = await invoke(body(`mcp-secret-${format}`, template), format);
        expect(o.status).toBe(200);
        seen.push(o.events ?? o.chunks, Object.fromEntries(o.headers));
        traceIds.push(o.headers.get("x-svc-trace-id"));
        if (format === "native") {
          expect(results(o.events!)[`w_${format}`]).toEqual({ output: "authorized with key [secret]", isError: false });
          traceId = o.headers.get("x-svc-trace-id") ?? (o.events!.at(-1) as { traceId: string }).traceId;
        }
      }
      expect(mcp.requests.at(-1)!["x-api-key"]).toBe(SECRET);
      // Both runs' records reach their listeners a moment after the answers: awaited.
      await runsRecorded(app.context);
      expect(records.map((r) => r.traceId)).toEqual(expect.arrayContaining(traceIds));
      const trace = await traceOf(traceId);
      expect(JSON.stringify(trace)).toContain("docs__whoami");
      expect(JSON.stringify(trace)).toMatch(/"mcp_servers":\["docs"\]/);
      for (const text of [
        JSON.stringify(seen),
        JSON.stringify(model.requests),
        JSON.stringify(records),
        JSON.stringify(trace),
        JSON.stringify(printed),
      ]) {
        expect(text).not.toContain(SECRET);
      }
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    const missing = await invoke(
      body(
        "mcp-secret",
        agent([server({}, { credentials: { type: "header_secret_refs", headers: { "X-Api-Key": "nope" } } })]),
      ),
    );
    expect(missing.status).toBe(400);
    expect(missing.batch.detail).toBe(
      'mcps[0] (server "docs"): credentials.headers.X-Api-Key names secret "nope", which this project\'s vault does not hold',
    );
  });

  it("a token stored as a provider key (before plain secrets existed) still serves as a header secret", async () => {
    const stored = await app.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: {
        header: { name: "legacy-mcp-key" },
        secret: { kind: "provider_key", data: { kind: "mistral", provider: { key: SECRET } } },
      },
    });
    expect(stored.status).toBe(201);
    model.script(
      { kind: "reply", text: "Checking.", toolCalls: [{ id: "w_legacy", name: "docs__whoami", input: {} }] },
      { kind: "reply", text: "Authorized." },
    );
    const o = await invoke(
      body(
        "mcp-secret-legacy",
        agent([
          server({}, { credentials: { type: "header_secret_refs", headers: { "X-Api-Key": "legacy-mcp-key" } } }),
        ]),
      ),
    );
    expect(results(o.events!).w_legacy).toEqual({ output: "authorized with key [secret]", isError: false });
    expect(mcp.requests.at(-1)!["x-api-key"]).toBe(SECRET);
    await app.call("DELETE", `/api/vault/v1/secrets/${stored.body.secret.id}`, { key });
  });

  it("a slow tool call ends at MCP_CALL_TIMEOUT_MS as an error result and the turn goes on", async () => {
    model.script(
      { kind: "reply", text: "Waiting.", toolCalls: [{ id: "c_slow", name: "docs__slow", input: { ms: 5_000 } }] },
      { kind: "reply", text: "Too slow." },
    );
    const started = Date.now();
    const o = await invokeWithTimeouts(
      { connectTimeoutMs: 10_000, callTimeoutMs: CALL_TIMEOUT_MS },
      body("mcp-slow", agent([server()])),
    );
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(results(o.events!).c_slow).toEqual({
      output: `Error: The tool "slow" of MCP server "docs" could not be called: it did not answer within ${CALL_TIMEOUT_MS} ms (MCP_CALL_TIMEOUT_MS).`,
      isError: true,
    });
    expect(stop(o.events!)).toBe("stop");
  });

  it("a server that keeps sessions gets one per run, ended (DELETE) when the turn ends", async () => {
    const stateful = await startMcpTestServer({ stateful: true });
    try {
      model.script(
        { kind: "reply", text: "Echo.", toolCalls: [{ id: "s_echo", name: "state__echo", input: { text: "kept" } }] },
        { kind: "reply", text: "Done." },
      );
      const o = await invoke(body("mcp-stateful", agent([{ name: "state", connection: { url: stateful.url } }])));
      expect(results(o.events!).s_echo).toEqual({ output: "echo: kept", isError: false });
      expect(stateful.requests.some((h) => typeof h["mcp-session-id"] === "string")).toBe(true);
      // The session's DELETE follows the turn's end: awaited (the server tells its sessions' ends).
      await within(5_000, "the run's MCP session to be ended", stateful.sessionsEnded());
      expect(stateful.openSessions.size).toBe(0);

      // A run refused after connecting (an include name the server lacks) ends its session too.
      const refused = await invoke(
        body(
          "mcp-stateful",
          agent([
            {
              name: "state",
              connection: { url: stateful.url },
              policy: { tools: { mode: "include", names: ["nope"] } },
            },
          ]),
        ),
      );
      expect(refused.status).toBe(400);
      expect(stateful.openSessions.size).toBe(0);
    } finally {
      await stateful.close();
    }
  });

  it("a server that cannot be used refuses the run with 424 naming it: unreachable, silent, refused by the egress guard", async () => {
    const gone = await startMcpTestServer();
    const goneUrl = gone.url;
    await gone.close();
    const unreachable = await invoke(
      body("mcp-down", agent([server(), { name: "tickets", connection: { url: goneUrl } }])),
    );
    expect(unreachable.status).toBe(424);
    expect(unreachable.batch.detail).toMatch(
      /^mcps\[1\] \(server "tickets"\) at 127\.0\.0\.1:\d+ could not be used: the connection failed \(ECONNREFUSED\)\. The run did not start\.$/,
    );

    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const hung = await invokeWithTimeouts(
        { connectTimeoutMs: CONNECT_TIMEOUT_MS, callTimeoutMs: 10_000 },
        body("mcp-hung", agent([{ name: "hung", connection: { url: silent.url } }])),
      );
      expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
      expect(hung.status).toBe(424);
      expect(hung.batch.detail).toContain(`(server "hung")`);
      expect(hung.batch.detail).toContain(`it did not answer within ${CONNECT_TIMEOUT_MS} ms (MCP_CONNECT_TIMEOUT_MS)`);
    } finally {
      await silent.close();
    }

    const before = app.context.config.egressAllowlist;
    app.context.config.egressAllowlist = [];
    try {
      const refused = await invoke(body("mcp-egress", agent([server()])));
      expect(refused.status).toBe(424);
      expect(refused.batch.detail).toContain('mcps[0] (server "docs")');
      expect(refused.batch.detail).toContain("EGRESS_ALLOWLIST");
    } finally {
      app.context.config.egressAllowlist = before;
    }
  });
});

describe("MCP tools in the permission order", () => {
  it("policy.permission ask pauses for approval; the approved call runs once on the next turn", async () => {
    const template = agent([server({ policy: { permission: "ask" } })]);
    model.script({
      kind: "reply",
      text: "Echoing.",
      toolCalls: [{ id: "c_ask", name: "docs__echo", input: { text: "approved" } }],
    });
    const calls = mcp.calls.length;
    const paused = await invoke(body("mcp-ask", template));
    expect(stop(paused.events!)).toBe("paused");
    const request = paused.events!.find((e) => e.type === "interaction_request") as unknown as {
      id: string;
      kind: string;
      payload: { toolCallId: string };
    };
    expect(request).toMatchObject({ kind: "user_approval", payload: { toolCallId: "c_ask" } });
    expect(mcp.calls.length).toBe(calls);

    model.script({ kind: "reply", text: "Echoed." });
    const history = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [{ type: "tool_call", toolCallId: "c_ask", toolName: "docs__echo", input: { text: "approved" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            tool_call_id: "c_ask",
            tool_name: "docs__echo",
            approved: true,
            interaction_token: request.id,
          },
        ],
      },
    ];
    const resumed = await invoke(body("mcp-ask", template, history));
    expect(results(resumed.events!).c_ask).toEqual({ output: "echo: approved", isError: false });
    expect(stop(resumed.events!)).toBe("stop");
    expect(mcp.calls.slice(calls)).toEqual(["echo"]);
  });

  it("the UI message stream carries the approval request of an MCP tool", async () => {
    model.script({
      kind: "reply",
      text: "Echoing.",
      toolCalls: [{ id: "u_ask", name: "docs__echo", input: { text: "x" } }],
    });
    const o = await invoke(body("mcp-ask-ui", agent([server({ policy: { permission: "ask" } })])), "ui_sdk");
    expect(o.chunks!.find((c) => c.type === "tool-approval-request")).toMatchObject({ toolCallId: "u_ask" });
    expect(o.chunks!.at(-1)).toMatchObject({ type: "finish", finishReason: "other" });
  });

  it("allow_reads runs readOnlyHint tools and asks for the rest; deny refuses without calling the server", async () => {
    const reads = agent([server()], { runner: { permissions: { default: "allow_reads" } } });
    model.script({
      kind: "reply",
      text: "Both.",
      toolCalls: [
        { id: "c_look", name: "docs__lookup", input: { id: "42" } },
        { id: "c_echo", name: "docs__echo", input: { text: "w" } },
      ],
    });
    const o = await invoke(body("mcp-reads", reads));
    expect(results(o.events!).c_look).toEqual({ output: "record 42: ok", isError: false });
    expect(
      o
        .events!.filter((e) => e.type === "interaction_request")
        .map((e) => (e as unknown as { payload: { toolCallId: string } }).payload.toolCallId),
    ).toEqual(["c_echo"]);
    expect(stop(o.events!)).toBe("paused");

    const calls = mcp.calls.length;
    model.script(
      { kind: "reply", text: "Trying.", toolCalls: [{ id: "c_no", name: "docs__lookup", input: { id: "1" } }] },
      { kind: "reply", text: "Refused." },
    );
    const denied = await invoke(body("mcp-deny", agent([server({ policy: { permission: "deny" } })])));
    expect(results(denied.events!).c_no).toEqual({ output: expect.stringContaining("does not allow"), isError: true });
    expect(mcp.calls.length).toBe(calls);
  });

  it("a tools[] entry's name and an MCP tool's name cannot collide; duplicate server names are refused", async () => {
    const clash = await invoke(
      body("mcp-clash", { ...agent([server()]), tools: [{ type: "client", name: "docs__echo" }] }),
    );
    expect(clash.status).toBe(400);
    expect(clash.batch.detail).toContain('"docs__echo" is already taken');
    const twice = await invoke(body("mcp-twice", agent([server(), server()])));
    expect(twice.status).toBe(400);
    expect(twice.batch.detail).toBe('mcps[1].name: a server named "docs" is already declared');
  });
});

/** The run's trace, once its end is recorded and its spans went through the ingest queue (after the response). */
async function traceOf(traceId: string): Promise<unknown> {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/api/traces/${traceId}`, { key });
  expect(res.status === 200 && res.body.count > 0, `trace ${traceId}: ${JSON.stringify(res.body)}`).toBe(true);
  return res.body;
}
