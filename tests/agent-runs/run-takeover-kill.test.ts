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

  /** Kills the child, then sweeps from this process until the expired run is claimed. */
  async function killAndTakeOver(runId: string) {
    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    await until(async () => (await runSweepWorker.drain(t.context, 10)) > 0, "the lease to expire", 10 * LEASE_MS);
    let body: any;
    await until(async () => {
      body = (await t.call("GET", `/services/agent/v0/runs/${runId}`, { key })).body;
      return body.run.status !== "running";
    }, "the run to end");
    expect(body.events.map((e: any) => e.seq)).toEqual(body.events.map((_: unknown, i: number) => i + 1));
    return body;
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
    await sleep(100);
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
  });
});
