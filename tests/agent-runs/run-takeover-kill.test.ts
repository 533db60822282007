import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runSweepWorker } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { asc, eq } from "drizzle-orm";
import { tables } from "@/server/db";
import type { NativeEvent } from "@/server/streams";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { attribute, traceSpans, type SpanNode } from "../helpers/run-trace";
import { toolSpanId } from "@/server/agent-runs/tool-span-id";

// Another process on the same database needs real PostgreSQL (PGlite lives inside one process).
const pg = !!process.env.DATABASE_URL;

describe.skipIf(!pg)("a turn whose process is killed with SIGKILL is taken over on PostgreSQL", () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let mcp: McpTestServer;
  let child: ChildProcess | undefined;
  let key: string;
  const secretKey = randomBytes(32);
  const LEASE_MS = 1_000;

  beforeAll(async () => {
    model = await startScriptedModelServer();
    mcp = await startMcpTestServer();
    t = await createTestApp({
      secretKey,
      providerEnv: { openai: { key: "sk-takeover", baseUrl: model.baseUrl } },
      // The MCP server listens on loopback, which the egress guard refuses unless allowlisted.
      egressAllowlist: loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" }).egressAllowlist,
    });
    ({ key } = await t.newProject());
  });
  afterEach(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
  });
  afterAll(async () => {
    await t.close();
    await mcp.close();
    await model.close();
  });

  const agent = () => ({
    llm: { provider: "openai", model: "gpt-5-mini" },
    tools: [],
    mcps: [{ name: "docs", connection: { url: mcp.url } }],
    runner: { permissions: { default: "allow" } },
  });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function startApp(): Promise<string> {
    child = spawn(process.execPath, ["--import", "tsx", "tests/agent-runs/fixtures/app-process.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: t.database.url,
        APP_SECRET_KEY: secretKey.toString("base64"),
        AGENT_RUN_LEASE_MS: String(LEASE_MS),
        EGRESS_ALLOWLIST: "127.0.0.1",
        LOG_LEVEL: "silent",
        NODE_ENV: "test",
        OPENAI_API_KEY: "sk-takeover",
        OPENAI_BASE_URL: model.baseUrl,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    return new Promise<string>((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => {
        const port = /LISTENING (\d+)/.exec(chunk.toString())?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      child!.on("exit", (code) => reject(new Error(`app process exited with ${code}`)));
    });
  }

  async function invokeOnChild(origin: string, sessionId: string): Promise<string> {
    const res = await fetch(`${origin}/services/agent/v0/invoke`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        session_id: sessionId,
        flags: { background: true },
        data: { inputs: { messages: [{ role: "user", content: "find 42" }] }, parameters: { agent: agent() } },
      }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { run_id: string }).run_id;
  }

  async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  const logOf = async (runId: string) =>
    (
      await t.context.db
        .select({ events: tables.agentRunEvents.events })
        .from(tables.agentRunEvents)
        .where(eq(tables.agentRunEvents.runId, runId))
        .orderBy(asc(tables.agentRunEvents.seq))
    ).flatMap((row) => row.events as NativeEvent[]);

  /**
   * Kills the child, moves this process's clock past the lease the child last renewed (the
   * sweep reads leases against it) and sweeps until the run is claimed.
   */
  async function killAndTakeOver(runId: string) {
    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    t.advanceClock(LEASE_MS);
    await until(async () => (await runSweepWorker.drain(t.context, 10)) > 0, "the run to be claimed");
    let body: any;
    await until(async () => {
      body = (await t.call("GET", `/services/agent/v0/runs/${runId}`, { key })).body;
      return body.run.status !== "running";
    }, "the run to end");
    expect(body.events.map((e: any) => e.seq)).toEqual(body.events.map((_: unknown, i: number) => i + 1));
    return body;
  }

  /** The run's trace: one root, the run's start to its end, taken over once; spans as [name, status]. */
  async function wholeTrace(body: any, expected: number) {
    const spans = await traceSpans(t, key, body.run.trace_id, expected);
    const roots = spans.filter((s) => s.span_name.startsWith("invoke_agent"));
    expect(roots).toHaveLength(1);
    const [root] = roots;
    expect(root.parent_id ?? null).toBeNull();
    expect(Date.parse(root.start_time)).toBe(Date.parse(body.run.created_at));
    expect(attribute(root, "ag.meta.run.takeovers")).toBe(1);
    const takenOverAt = Date.parse(root.events!.find((e) => e.name === "run_taken_over")!.timestamp);
    expect(new Set(spans.map((s) => s.span_id)).size).toBe(spans.length);
    const beforeTakeover = (s: SpanNode) => Date.parse(s.start_time) < takenOverAt;
    return { spans, takenOverAt, beforeTakeover };
  }

  it("after a read-only tool completed and with the next model step in flight: the step is issued again", async () => {
    const origin = await startApp();
    model.script(
      { kind: "reply", toolCalls: [{ id: "call_l", name: "docs__lookup", input: { id: "42" } }] },
      { kind: "hang" },
    );
    const runId = await invokeOnChild(origin, `kill-read-${Date.now()}`);
    await until(
      async () => (await logOf(runId)).some((e) => e.type === "tool_result") && model.requests.length >= 2,
      "the tool result and the second model request",
    );
    model.script({ kind: "reply", text: "Found 42." });
    const body = await killAndTakeOver(runId);
    expect(body.run).toMatchObject({ status: "finished", stop_reason: "stop" });
    expect(mcp.calls.filter((name) => name === "lookup")).toHaveLength(1);
    expect(body.outputs.messages).toEqual([
      expect.objectContaining({ role: "tool", tool_call_id: "call_l", tool_name: "docs__lookup" }),
      expect.objectContaining({ role: "tool", tool_call_id: "call_l", is_error: false }),
      { role: "assistant", content: "Found 42." },
    ]);
    expect(body.events.filter((e: any) => e.type === "done")).toHaveLength(1);

    // The trace holds the killed process's steps and the continuation's under the run's one root.
    const { spans, takenOverAt, beforeTakeover } = await wholeTrace(body, 6);
    expect(spans.slice(2).map((s) => [s.span_name, s.status_code, beforeTakeover(s)])).toEqual([
      ["chat gpt-5-mini", "STATUS_CODE_OK", true],
      ["execute_tool docs__lookup", "STATUS_CODE_OK", true],
      ["chat gpt-5-mini", "STATUS_CODE_ERROR", true],
      ["chat gpt-5-mini", "STATUS_CODE_OK", false],
    ]);
    const lookup = spans[3];
    expect(lookup.span_id).toBe(toolSpanId(body.run.trace_id, "call_l"));
    expect(attribute(lookup, "gen_ai.tool.call.id")).toBe("call_l");
    expect(attribute(lookup, "ag.data.outputs")).toBe("record 42: ok");
    // The model call the kill cut off ends at the takeover, marked interrupted.
    expect(spans[4].status_message).toMatch(/^interrupted/);
    expect(Date.parse(spans[4].end_time)).toBe(takenOverAt);
    expect(JSON.stringify(attribute(spans[5], "ag.data.outputs"))).toContain("Found 42.");
  });

  it("with a side-effecting tool in flight: the tool ran once and its call became an interrupted error", async () => {
    const origin = await startApp();
    const before = mcp.calls.filter((name) => name === "slow").length;
    model.script({ kind: "reply", toolCalls: [{ id: "call_s", name: "docs__slow", input: { ms: 3_000 } }] });
    const runId = await invokeOnChild(origin, `kill-write-${Date.now()}`);
    await until(
      async () =>
        mcp.calls.filter((name) => name === "slow").length > before &&
        (await logOf(runId)).filter((e) => e.type === "tool_call").length >= 2,
      "the slow tool to start",
    );
    model.script({ kind: "reply", text: "I will check whether it happened." });
    const body = await killAndTakeOver(runId);
    expect(body.run).toMatchObject({ status: "finished", stop_reason: "stop" });
    // The takeover waits for a tool's result before the run ends, so a second call would be counted by now.
    expect(mcp.calls.filter((name) => name === "slow").length - before).toBe(1);
    expect(body.outputs.messages).toEqual([
      expect.objectContaining({ role: "tool", tool_call_id: "call_s", tool_name: "docs__slow" }),
      expect.objectContaining({
        role: "tool",
        tool_call_id: "call_s",
        is_error: true,
        content: expect.stringMatching(/"docs__slow" was interrupted/),
      }),
      { role: "assistant", content: "I will check whether it happened." },
    ]);

    const { spans, takenOverAt, beforeTakeover } = await wholeTrace(body, 5);
    expect(spans.slice(2).map((s) => [s.span_name, s.status_code, beforeTakeover(s)])).toEqual([
      ["chat gpt-5-mini", "STATUS_CODE_OK", true],
      ["execute_tool docs__slow", "STATUS_CODE_ERROR", true],
      ["chat gpt-5-mini", "STATUS_CODE_OK", false],
    ]);
    const slow = spans[3];
    expect(slow.span_id).toBe(toolSpanId(body.run.trace_id, "call_s"));
    expect(attribute(slow, "gen_ai.tool.call.id")).toBe("call_s");
    expect(attribute(slow, "ag.data.inputs")).toEqual({ ms: 3_000 });
    expect(slow.status_message).toMatch(/^interrupted/);
    expect(Date.parse(slow.end_time)).toBe(takenOverAt);
  });
});
