import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateAgentTemplate } from "@/server/agent-template";
import { loadConfig } from "@/server/core/config";
import {
  CORE_BASE_PROMPT,
  GETTING_STARTED_SKILL,
  prepareTurn,
  SERVICE_BASE_PROMPT,
  traceContext,
} from "@/server/agent-runs";
import type { NativeEvent } from "@/server/streams";
import { invokeOver, type FormatName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { agentWorkflows } from "./agent-workflows";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let owner: { key: string; projectId: string; userId: string };
let workflows: ReturnType<typeof agentWorkflows>;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-service", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  owner = await app.newProject();
  workflows = agentWorkflows(app, owner.key);
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

const PLATFORM = [
  "discover_tools",
  "discover_agents",
  "discover_workflows",
  "retrieve_revision",
  "commit_revision",
  "query_traces",
];
// The harness adds `read` too when the template cannot otherwise open its getting-started skill.
const FORCED = [...PLATFORM, "read"];
const llm = { provider: "openai", model: "gpt-5-mini" };
const service = (extra: Record<string, unknown> = {}) => ({
  instructions: { agents_md: "Project rule: be terse." },
  llm,
  tools: [],
  harness: { kind: "service_harness" },
  runner: { permissions: { default: "allow" } },
  ...extra,
});
const messages = [{ role: "user", content: "what can you do here?" }];
const toolNames = (request: { body: any }) => (request.body.tools ?? []).map((t: { name: string }) => t.name).sort();
const systemOf = (request: { body: any }) => String(request.body.input[0].content);

describe("service_harness: the core engine with the service's instructions, skill and platform tools forced on", () => {
  it.each(["native", "ui_sdk"] as const)(
    "its base prompt and the platform tools reach the model, and a forced tool runs (%s)",
    async (format: FormatName) => {
      const slug = `service-${format.replace("_", "-")}`;
      await workflows.create(slug, service());
      model.script(
        { kind: "reply", toolCalls: [{ id: "s_tools", name: "discover_agents", input: {} }] },
        { kind: "reply", text: "I can manage agents." },
      );
      const before = model.requests.length;
      const o = await invokeOver(live.origin, owner.key, "sse", format, {
        references: { workflow: { slug } },
        data: { inputs: { messages } },
      });
      expect(o.status, JSON.stringify(o.batch)).toBe(200);
      const first = model.requests[before];
      expect(toolNames(first)).toEqual([...FORCED].sort());
      const system = systemOf(first);
      expect(system.startsWith(SERVICE_BASE_PROMPT)).toBe(true);
      expect(system).not.toContain(CORE_BASE_PROMPT);
      expect(system).toContain("Project rule: be terse.");
      const output =
        format === "native"
          ? (o.events!.find((e) => e.type === "tool_result") as Extract<NativeEvent, { type: "tool_result" }>).output
          : o.chunks!.find((c) => c.type === "tool-output-available").output;
      expect((output as { agents: Array<{ slug: string }> }).agents.map((a) => a.slug)).toContain(slug);
    },
  );

  it("an inline template gets every platform tool but commit (no variant of its own); the core harness gets none of them", async () => {
    model.script({ kind: "reply", text: "ok" });
    const before = model.requests.length;
    const inline = await invokeOver(live.origin, owner.key, "batch", "native", {
      data: { inputs: { messages }, parameters: { agent: service() } },
    });
    expect(inline.status).toBe(200);
    expect(toolNames(model.requests[before])).toEqual(FORCED.filter((op) => op !== "commit_revision").sort());
    const core = await invokeOver(live.origin, owner.key, "batch", "native", {
      data: { inputs: { messages }, parameters: { agent: service({ harness: { kind: "core_harness" } }) } },
    });
    expect(core.status).toBe(200);
    expect(toolNames(model.requests[before + 1])).toEqual([]);
    expect(systemOf(model.requests[before + 1]).startsWith(CORE_BASE_PROMPT)).toBe(true);
  });

  it("a platform entry the template already has keeps its own permission; extras.system still replaces the base prompt", async () => {
    const template = service({
      tools: [{ type: "platform", op: "discover_agents", permission: "deny" }],
      harness: { kind: "service_harness", extras: { system: "Custom base." } },
    });
    model.script(
      { kind: "reply", toolCalls: [{ id: "d1", name: "discover_agents", input: {} }] },
      { kind: "reply", text: "denied" },
    );
    const before = model.requests.length;
    const o = await invokeOver(live.origin, owner.key, "sse", "native", {
      data: { inputs: { messages }, parameters: { agent: template } },
    });
    expect(o.events!.find((e) => e.type === "tool_result")).toMatchObject({ id: "d1", isError: true });
    expect(toolNames(model.requests[before]).filter((n: string) => n === "discover_agents")).toHaveLength(1);
    expect(systemOf(model.requests[before]).startsWith("Custom base.")).toBe(true);
  });

  it("the getting-started skill is a valid skill entry and part of the prepared run (unless the template has its own of that name)", async () => {
    expect(validateAgentTemplate({ skills: [GETTING_STARTED_SKILL] }).ok).toBe(true);
    const principal = { projectId: owner.projectId, userId: owner.userId, role: "owner" as const };
    const prepare = (agent: unknown) =>
      prepareTurn(app.context, principal, { data: { inputs: { messages }, parameters: { agent } } }, "native", {
        trace: traceContext(null),
        depth: 0,
      });
    const prepared = await prepare(service());
    expect(prepared.template.skills).toEqual([GETTING_STARTED_SKILL]);
    const own = { name: "getting-started", description: "Ours.", body: "Our own guide." };
    const kept = await prepare(service({ skills: [own] }));
    expect(kept.template.skills).toEqual([expect.objectContaining(own)]);
    const core = await prepare(service({ harness: { kind: "core_harness" } }));
    expect(core.template.skills).toEqual([]);
  });
});
