import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { loadWorkspace } from "@/server/sandbox";
import { runsRecorded } from "../helpers/after-runs";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * A tool call whose agent asks for an approval: a client that declared elicitation is asked in
 * the client and its answer continues the run; any other client gets the playground link and the
 * paused run's id.
 */
let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let projectId: string;
const clients: Client[] = [];

const WRITE = (content: string) => ({ id: `call_${content}`, name: "write", input: { path: "notes.txt", content } });

async function connect(answer?: (question: string) => ElicitResult) {
  const client = new Client(
    { name: "elicitation-client", version: "1.0.0" },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${live.origin}/api/mcp/${projectId}`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

const noteOf = async (sessionId: string) => {
  const entries = await loadWorkspace(app.context.db, projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((e) => e.path === "/workspace/notes.txt");
  return file && file.kind === "file" ? Buffer.from(file.base64, "base64").toString() : undefined;
};

const runOf = async (id: string) => (await app.call("GET", `/services/agent/v0/runs/${id}`, { key })).body.run;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-elicit", baseUrl: model.baseUrl } },
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
  });
  live = await serveOverHttp(app);
  ({ key, projectId } = await app.newProject("elicitation"));
  const agent = {
    llm: { model: "openai/gpt-5-mini" },
    tools: ["read", "write"].map((name) => ({ type: "builtin", name })),
  };
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: { workflow: { slug: "scribe", name: "Scribe", data: { parameters: { agent } } } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
    key,
    body: { workflow_ref: { slug: "scribe" }, environment_ref: { slug: "production" } },
  });
  expect(deployed.status).toBe(200);
  const exposed = await app.call("PUT", "/api/exposure", {
    key,
    body: { exposures: [{ kind: "agent", slug: "scribe", environment: "production" }] },
  });
  expect(exposed.status).toBe(200);
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await live.close();
  await app.close();
  await model.close();
});

describe("a tool call that needs approval", () => {
  it("asks a client that declared elicitation; approve runs the call and the run goes on", async () => {
    const questions: string[] = [];
    const client = await connect((question) => {
      questions.push(question);
      return { action: "accept", content: { decision: "approve" } };
    });
    model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE("approved")] }, { kind: "reply", text: "Saved." });
    const result = await client.callTool({ name: "scribe@production", arguments: { message: "save a note" } });
    const output = result.structuredContent as Record<string, string>;
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain("write");
    expect(questions[0]).toContain("notes.txt");
    expect(result.isError).toBeFalsy();
    expect(output).toMatchObject({ status: "finished", text: "Saving.\n\nSaved." });
    expect(await noteOf(output.session_id)).toBe("approved");
    await runsRecorded(app.context);
    // The answer continued the paused run, as invoke's answer does: a run of the session that names it.
    const last = await runOf(output.run_id);
    expect(last).toMatchObject({ origin: "mcp", status: "finished", session_id: output.session_id });
    expect(last.continues_run_id).toBeTruthy();
    expect(await runOf(last.continues_run_id)).toMatchObject({ origin: "mcp", status: "paused" });
  });

  it("deny (or declining the question) tells the model and never runs the call", async () => {
    const client = await connect(() => ({ action: "decline" }));
    model.script(
      { kind: "reply", text: "Saving.", toolCalls: [WRITE("denied")] },
      { kind: "reply", text: "Not saved." },
    );
    const result = await client.callTool({ name: "scribe@production", arguments: { message: "save a note" } });
    const output = result.structuredContent as Record<string, string>;
    expect(output).toMatchObject({ status: "finished", text: "Saving.\n\nNot saved." });
    expect(await noteOf(output.session_id)).toBeUndefined();
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("denied");
  });

  it("a client without elicitation gets the playground link and the paused run's id", async () => {
    const client = await connect();
    model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE("later")] });
    const result = await client.callTool({ name: "scribe@production", arguments: { message: "save a note" } });
    const output = result.structuredContent as Record<string, string>;
    expect(output).toMatchObject({ status: "needs_approval" });
    expect(output.approval_url).toContain(`?run=${output.run_id}`);
    expect(result.content).toEqual([
      { type: "text", text: expect.stringContaining(`Approve it at ${output.approval_url} (run ${output.run_id})`) },
    ]);
    await runsRecorded(app.context);
    expect(await runOf(output.run_id)).toMatchObject({ status: "paused" });
    expect(await noteOf(output.session_id)).toBeUndefined();
  });
});
