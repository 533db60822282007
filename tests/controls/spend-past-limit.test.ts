import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controlsState } from "@/server/controls/controls-state";
import { loadConfig } from "@/server/core/config";
import { tables } from "@/server/db";
import { budgetSpend } from "@/server/db/schema";
import { loadWorkspace } from "@/server/sandbox";
import { runsRecorded } from "../helpers/after-runs";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { spansOf } from "../helpers/run-trace";

/**
 * Spend is summed as decimals, and nothing a model asks for runs on spend past the limit: the
 * tools of the step that left a budget spent never run, approval-gated or not (server/controls
 * README, "Spend past the limit"). gpt-5-mini lists at $0.25 per million input tokens.
 */
let app: TestApp;
let model: ScriptedModelServer;

const INVOKE = "/services/agent/v0/invoke";
/** Input tokens that cost `usd` at gpt-5-mini's list price. */
const tokensFor = (usd: number) => Math.round(usd * 4_000_000);

beforeAll(async () => {
  model = await startScriptedModelServer();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: { ...defaults.providerEnv, openai: { key: "sk-openai-test", baseUrl: model.baseUrl } },
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
  });
});
afterAll(async () => {
  await app.close();
  await model.close();
});

async function budget(key: string, limitUsd: number) {
  const res = await app.call("POST", "/api/controls/budgets/", {
    key,
    body: { name: "daily", scope: "project", window: "day", limit_usd: limitUsd },
  });
  expect(res.status).toBe(201);
  return res.body.budget;
}

const invoke = (key: string, sessionId: string, agent: Record<string, unknown>, messages: unknown[]) =>
  app.call("POST", INVOKE, {
    key,
    body: {
      session_id: sessionId,
      data: {
        inputs: { messages },
        parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, ...agent } },
      },
    },
  });

async function fileOf(projectId: string, sessionId: string, path: string): Promise<string | undefined> {
  const entries = await loadWorkspace(app.context.db, projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((entry) => entry.path === `/workspace/${path}`);
  return file && file.kind === "file" ? Buffer.from(file.base64, "base64").toString() : undefined;
}

const write = (id: string, path: string) => ({ id, name: "write", input: { path, content: `written by ${id}` } });

describe("spend is a decimal sum", () => {
  it("three steps of $0.018 spend $0.054 exactly: the budget of $0.054 is reached, in memory, in the table and on the wire", async () => {
    const { key } = await app.newProject();
    const { id } = await budget(key, 0.054);
    model.script({ kind: "reply", text: "ok", usage: { input: tokensFor(0.018), output: 0 } });
    for (let i = 0; i < 3; i++) {
      const res = await invoke(key, `decimal-${i}`, { tools: [] }, [{ role: "user", content: "hi" }]);
      expect(res.status).toBe(200);
      // Each turn's spend goes through the table's add too (numeric), not only the process's.
      await controlsState(app.context).spend.sync();
    }
    // As doubles, 0.018 + 0.018 + 0.018 is 0.05399999999999999: below the limit, so not refused.
    const refused = await invoke(key, "decimal-3", { tools: [] }, [{ role: "user", content: "hi" }]);
    expect(refused.status).toBe(402);
    expect(refused.body.budget.spent_usd).toBe(0.054);
    expect(refused.body.detail).toContain("has spent $0.0540 of its $0.054 limit");
    const listed = await app.call("GET", "/api/controls/budgets/", { key });
    expect(listed.body.budgets[0].spent_usd).toBe(0.054);
    const [row] = await app.context.db.select().from(budgetSpend).where(eq(budgetSpend.budgetId, id));
    expect(row.spentUsd).toBe(0.054);
  });
});

describe("tools asked for by the step that leaves a budget spent", () => {
  it("an approval-gated tool is never run: no approval is asked for, the turn ends budget_exceeded", async () => {
    const { key, projectId } = await app.newProject();
    await budget(key, 0.2);
    const session = `gated-${Date.now()}`;
    model.script(
      {
        kind: "reply",
        text: "Saving.",
        usage: { input: tokensFor(0.25), output: 0 },
        toolCalls: [write("w1", "a.txt")],
      },
      { kind: "reply", text: "never asked" },
    );
    const sent = model.requests.length;
    const res = await invoke(key, session, { tools: [{ type: "builtin", name: "write" }] }, [
      { role: "user", content: "save a note" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.outputs.stop_reason).toBe("budget_exceeded");
    expect(res.body.data.outputs.pending_interaction ?? null).toBeNull();
    expect(model.requests.length).toBe(sent + 1);
    await runsRecorded(app.context);
    const approvals = await app.context.db
      .select()
      .from(tables.toolApprovals)
      .where(eq(tables.toolApprovals.projectId, projectId));
    expect(approvals).toEqual([]);
    expect(await fileOf(projectId, session, "a.txt")).toBeUndefined();
  });

  it("an approval asked for under the budget and answered once it is spent: refused with 402, the tool never runs", async () => {
    const { key, projectId } = await app.newProject();
    await budget(key, 0.2);
    const session = `answered-late-${Date.now()}`;
    const tools = { tools: [{ type: "builtin", name: "write" }] };
    const call = write("w1", "late.txt");
    model.script({ kind: "reply", text: "Saving.", usage: { input: tokensFor(0.1), output: 0 }, toolCalls: [call] });
    const paused = await invoke(key, session, tools, [{ role: "user", content: "save a note" }]);
    expect(paused.body.data.outputs.stop_reason).toBe("paused");
    const approvalId = paused.body.data.outputs.pending_interaction.id as string;
    // Another turn of the project spends the rest of the budget.
    model.script({ kind: "reply", text: "Pricey.", usage: { input: tokensFor(0.15), output: 0 } });
    expect((await invoke(key, `other-${Date.now()}`, { tools: [] }, [{ role: "user", content: "hi" }])).status).toBe(
      200,
    );
    const sent = model.requests.length;
    const answer = await invoke(key, session, tools, [
      { role: "user", content: "save a note" },
      {
        role: "assistant",
        content: [{ type: "tool_call", toolCallId: call.id, toolName: "write", input: call.input }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            tool_call_id: call.id,
            tool_name: "write",
            approved: true,
            interaction_token: approvalId,
          },
        ],
      },
    ]);
    expect(answer.status).toBe(402);
    expect(answer.body.code).toBe("budget_exceeded");
    expect(model.requests.length).toBe(sent);
    expect(await fileOf(projectId, session, "late.txt")).toBeUndefined();
  });

  it("a tool that needs no approval is not run either; the steps before ran theirs", async () => {
    const { key, projectId } = await app.newProject();
    await budget(key, 0.2);
    const session = `allowed-${Date.now()}`;
    // Step 1 ($0.10) writes under the budget; step 2 ($0.15) leaves it spent and asks for a second write.
    model.script(
      {
        kind: "reply",
        text: "First.",
        usage: { input: tokensFor(0.1), output: 0 },
        toolCalls: [write("w1", "one.txt")],
      },
      {
        kind: "reply",
        text: "Second.",
        usage: { input: tokensFor(0.15), output: 0 },
        toolCalls: [write("w2", "two.txt")],
      },
      { kind: "reply", text: "never asked" },
    );
    const sent = model.requests.length;
    const res = await invoke(
      key,
      session,
      { tools: [{ type: "builtin", name: "write" }], runner: { permissions: { default: "allow" } } },
      [{ role: "user", content: "save two notes" }],
    );
    expect(res.status).toBe(200);
    expect(res.body.data.outputs.stop_reason).toBe("budget_exceeded");
    expect(model.requests.length).toBe(sent + 2);
    expect(await fileOf(projectId, session, "one.txt")).toBe("written by w1");
    expect(await fileOf(projectId, session, "two.txt")).toBeUndefined();
    // The model's call is on the wire, with no result: it was not run.
    expect(JSON.stringify(res.body)).toContain("two.txt");
    await runsRecorded(app.context);
    const trace = await app.call("GET", `/api/traces/${res.headers.get("x-svc-trace-id")}`, { key });
    const tools = spansOf<any>(trace.body).filter((span) => span.span_name.startsWith("execute_tool"));
    // Only the call that ran has a span; the one not run is no error either: the turn was stopped.
    expect(tools.map((span) => span.attributes.gen_ai.tool.call.id)).toEqual(["w1"]);
    expect(spansOf<any>(trace.body).filter((span) => span.status_code === "STATUS_CODE_ERROR")).toEqual([]);
  });
});
