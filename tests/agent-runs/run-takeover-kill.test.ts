import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runSweepWorker } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { eq } from "drizzle-orm";
import { tables } from "@/server/db";
import type { NativeEvent } from "@/server/streams";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { runsRecorded } from "../helpers/after-runs";
import { within } from "../helpers/within";
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

  /**
   * Follows the run's event log (SSE from the app process, which reads the log) until `holds` is
   * true of the events logged so far, then stops following.
   */
  async function logged(origin: string, runId: string, what: string, holds: (events: NativeEvent[]) => boolean) {
    const follow = async () => {
      const res = await fetch(`${origin}/services/agent/v0/runs/${runId}/events`, {
        headers: { authorization: `ApiKey ${key}`, accept: "text/event-stream" },
      });
      expect(res.status).toBe(200);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const events: NativeEvent[] = [];
      let buffered = "";
      try {
        while (!holds(events)) {
          const next = await reader.read();
          if (next.done) throw new Error(`the run's log ended before ${what}`);
          buffered += next.value;
          for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
            const data = /^data: (.*)$/m.exec(buffered.slice(0, end))?.[1];
            buffered = buffered.slice(end + 2);
            if (data) events.push(JSON.parse(data) as NativeEvent);
          }
        }
      } finally {
        await reader.cancel();
      }
    };
    await within(20_000, what, follow());
  }

  /**
   * Kills the child, moves this process's clock past the lease the child last renewed (the
   * sweep reads leases against it), sweeps once (the run is claimed) and awaits the run's end.
   */
  async function killAndTakeOver(runId: string) {
    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    // A statement the child's backend was running on the run's row ends once PostgreSQL sees the
    // connection gone; locking the row waits for it, so the sweep (SKIP LOCKED) does not skip the run.
    await within(
      20_000,
      "the killed process's statement on the run's row to end",
      t.context.db
        .select({ id: tables.agentRuns.id })
        .from(tables.agentRuns)
        .where(eq(tables.agentRuns.id, runId))
        .for("update")
        .then(() => undefined),
    );
    t.advanceClock(LEASE_MS);
    expect(await runSweepWorker.drain(t.context, 10)).toBeGreaterThan(0);
    // The sweep drives the taken-over run in this process: its end is awaited.
    await runsRecorded(t.context);
    const body = (await t.call("GET", `/services/agent/v0/runs/${runId}`, { key })).body;
    expect(body.run.status).not.toBe("running");
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
    const sent = model.requests.length;
    const runId = await invokeOnChild(origin, `kill-read-${Date.now()}`);
    await logged(origin, runId, "the tool result in the run's log", (events) =>
      events.some((e) => e.type === "tool_result"),
    );
    await within(20_000, "the second model request", model.requestsReceived(sent + 2));
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
    await within(20_000, "the slow tool to start", mcp.called("slow", before + 1));
    await logged(
      origin,
      runId,
      "the slow tool's call in the run's log",
      (events) => events.filter((e) => e.type === "tool_call").length >= 2,
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
