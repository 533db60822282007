import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import type { NativeEvent } from "@/server/streams";
import { runsRecorded } from "../helpers/after-runs";
import { invokeOver, type FormatName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { agentWorkflows } from "./agent-workflows";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let other: { key: string; projectId: string; variantId: string };
let workflows: ReturnType<typeof agentWorkflows>;

const OPS = [
  "discover_tools",
  "discover_agents",
  "discover_workflows",
  "retrieve_revision",
  "commit_revision",
  "query_traces",
];
const llm = { provider: "openai", model: "gpt-5-mini" };
const builder = (agentsMd = "builder v1") => ({
  instructions: { agents_md: agentsMd },
  llm,
  tools: OPS.map((op) => ({ type: "platform", op })),
  runner: { permissions: { default: "allow" } },
});

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-platform", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject("mine"));
  workflows = agentWorkflows(app, key);
  const foreign = await app.newProject("theirs");
  const created = await agentWorkflows(app, foreign.key).create("foreign-agent", builder("foreign"));
  other = { key: foreign.key, projectId: foreign.projectId, variantId: created.variantId };
  // A finished run in each project, so query_traces has something to find (and something to not find).
  const earlier: { key: string; traceId: string }[] = [];
  for (const k of [key, foreign.key]) {
    model.script({ kind: "reply", text: `earlier run ${k === key ? "mine" : "theirs"}` });
    const res = await invokeOver(live.origin, k, "batch", "native", {
      data: { inputs: { messages: [{ role: "user", content: "hi" }] }, parameters: { agent: { llm, tools: [] } } },
    });
    expect(res.status).toBe(200);
    earlier.push({ key: k, traceId: res.headers.get("x-svc-trace-id")! });
  }
  // Their spans are queued a moment after the answers: awaited, then stored.
  await runsRecorded(app.context);
  for (const run of earlier)
    expect((await app.call("GET", `/api/traces/${run.traceId}`, { key: run.key })).body.count).toBeGreaterThan(0);
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

const outputs = (events: NativeEvent[]) =>
  Object.fromEntries(events.filter((e) => e.type === "tool_result").map((e) => [e.id, e]));

describe("platform tools call this service's own operations", () => {
  it("the catalog lists every operation with its input schema and the arguments the run binds", async () => {
    const list = await app.call("GET", "/api/workflows/catalog/tools", { key });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(OPS.length);
    expect(list.body.tools.map((t: { op: string }) => t.op).sort()).toEqual([...OPS].sort());
    const commit = list.body.tools.find((t: { op: string }) => t.op === "commit_revision");
    expect(commit).toMatchObject({
      endpoint: "POST /api/workflows/revisions/commit",
      read_only: false,
      bound_from_run: ["project_id", "workflow_variant_id", "user_id"],
    });
    expect(commit.input_schema).toMatchObject({
      type: "object",
      properties: { data: { type: "object" }, message: { type: "string" } },
      required: ["data"],
    });
    expect(Object.keys(commit.input_schema.properties)).not.toContain("workflow_variant_id");
    const one = await app.call("GET", "/api/workflows/catalog/tools/query_traces", { key });
    expect(one.body.tool).toMatchObject({ op: "query_traces", read_only: true });
    const unknown = await app.call("GET", "/api/workflows/catalog/tools/launch_rockets", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain("discover_agents");
  });

  it.each(["native", "ui_sdk"] as const)(
    "each operation runs in the caller's project on the agent's own variant, whatever ids the model sends (%s)",
    async (format: FormatName) => {
      const slug = `builder-${format.replace("_", "-")}`;
      const own = await workflows.create(slug, builder());
      const edited = builder("builder v2, edited by itself");
      model.script(
        {
          kind: "reply",
          toolCalls: [
            { id: "p_tools", name: "discover_tools", input: {} },
            { id: "p_agents", name: "discover_agents", input: { project_id: other.projectId } },
            { id: "p_workflows", name: "discover_workflows", input: { project_id: other.projectId } },
            { id: "p_self", name: "retrieve_revision", input: {} },
            {
              id: "p_foreign",
              name: "retrieve_revision",
              input: { workflow_slug: "foreign-agent", project_id: other.projectId },
            },
            {
              id: "p_traces",
              name: "query_traces",
              input: {
                project_id: other.projectId,
                filtering: {
                  operator: "and",
                  conditions: [{ field: "content", operator: "contains", value: "earlier run" }],
                },
              },
            },
          ],
        },
        // The calls of one step run concurrently: the commit comes in a step of its own, after the reads.
        {
          kind: "reply",
          toolCalls: [
            {
              id: "p_commit",
              name: "commit_revision",
              input: {
                data: { parameters: { agent: edited } },
                message: "self edit",
                workflow_variant_id: other.variantId,
                project_id: other.projectId,
              },
            },
          ],
        },
        { kind: "reply", text: "Done." },
      );
      const o = await invokeOver(live.origin, key, "sse", format, {
        references: { workflow: { slug } },
        data: { inputs: { messages: [{ role: "user", content: "look around" }] } },
      });
      expect(o.status, JSON.stringify(o.batch)).toBe(200);

      let results: Record<string, { output?: unknown; isError?: boolean }>;
      let committed: unknown;
      if (format === "native") {
        results = outputs(o.events!);
        committed = o.events!.find((e) => e.type === "data" && e.name === "committed-revision");
      } else {
        results = Object.fromEntries(
          o
            .chunks!.filter((c) => c.type === "tool-output-available" || c.type === "tool-output-error")
            .map((c) => [c.toolCallId, { output: c.output ?? c.errorText, isError: c.type === "tool-output-error" }]),
        );
        committed = o.chunks!.find((c) => c.type === "data-committed-revision");
      }
      for (const [id, result] of Object.entries(results))
        expect(result.isError ?? false, `${id}: ${JSON.stringify(result.output)}`).toBe(id === "p_foreign");

      expect((results.p_tools.output as any).tools.map((t: { op: string }) => t.op)).toEqual(OPS);
      const agents = (results.p_agents.output as any).agents.map((a: { slug: string }) => a.slug);
      expect(agents).toContain(slug);
      expect(agents).not.toContain("foreign-agent");
      const names = (results.p_workflows.output as any).workflows.map((w: { slug: string }) => w.slug);
      expect(names).toContain(slug);
      expect(names).not.toContain("foreign-agent");
      expect(results.p_self.output).toMatchObject({
        id: own.revisionId,
        version: "1",
        data: { parameters: { agent: { instructions: { agents_md: "builder v1" } } } },
      });
      // Another project's workflow does not exist from here.
      expect(String(results.p_foreign.output)).toContain("foreign-agent");

      const commit = results.p_commit.output as { id: string; version: string; workflow_variant_id: string };
      expect(commit).toMatchObject({ version: "2", workflow_variant_id: own.variantId, message: "self edit" });
      const expected = { variantId: own.variantId, revisionId: commit.id, version: "2" };
      expect(committed).toMatchObject(
        format === "native"
          ? { type: "data", name: "committed-revision", data: expected }
          : { type: "data-committed-revision", data: expected },
      );
      const latest = await app.call("POST", "/api/workflows/revisions/retrieve", {
        key,
        body: { workflow_ref: { slug } },
      });
      expect(latest.body.workflow_revision).toMatchObject({
        id: commit.id,
        version: "2",
        data: { parameters: { agent: edited } },
      });
      const theirs = await app.call("POST", "/api/workflows/revisions/log", {
        key: other.key,
        body: { workflow: { workflow_variant_id: other.variantId } },
      });
      expect(theirs.body.count).toBe(1);

      const traces = results.p_traces.output as { count: number; traces: unknown[] };
      expect(traces.count).toBeGreaterThan(0);
      expect(JSON.stringify(traces.traces)).toContain("earlier run mine");
      expect(JSON.stringify(traces.traces)).not.toContain("earlier run theirs");
    },
  );

  it("refuses before the run an op the catalog does not have, and commit on an inline template (no own variant)", async () => {
    const run = (tools: unknown[]) =>
      app.call("POST", "/services/agent/v0/invoke", {
        key,
        body: {
          data: { inputs: { messages: [{ role: "user", content: "x" }] }, parameters: { agent: { llm, tools } } },
        },
      });
    const unknown = await run([{ type: "platform", op: "launch_rockets" }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "unknown_platform_op" });
    expect(unknown.body.detail).toContain('"launch_rockets"');
    const inline = await run([{ type: "platform", op: "commit_revision" }]);
    expect(inline.status).toBe(400);
    expect(inline.body.detail).toContain('platform tool "commit_revision"');
    expect(inline.body.detail).toContain("inline template");
  });

  it("commit is not read-only: under allow_reads it asks for approval, while reads run", async () => {
    const slug = "builder-gated";
    await workflows.create(slug, { ...builder(), runner: { permissions: { default: "allow_reads" } } });
    model.script({
      kind: "reply",
      toolCalls: [
        { id: "g_read", name: "discover_workflows", input: {} },
        { id: "g_commit", name: "commit_revision", input: { data: { parameters: { agent: builder("nope") } } } },
      ],
    });
    const o = await invokeOver(live.origin, key, "sse", "native", {
      references: { workflow: { slug } },
      data: { inputs: { messages: [{ role: "user", content: "edit yourself" }] } },
    });
    expect(outputs(o.events!).g_read).toMatchObject({ isError: false });
    expect(o.events!.find((e) => e.type === "interaction_request")).toMatchObject({
      kind: "user_approval",
      payload: { toolCallId: "g_commit" },
    });
    expect((o.events!.at(-1) as { stopReason: string }).stopReason).toBe("paused");
  });
});
