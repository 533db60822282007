import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { parseAllowlist, type AllowlistEntry } from "@/server/egress";
import type { NativeEvent } from "@/server/streams";
import { invokeOver } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let service: http.Server;
let serviceUrl: string;
let key: string;
let hits = 0;

beforeAll(async () => {
  model = await startScriptedModelServer();
  service = http.createServer((_req, res) => {
    hits++;
    res.end("hello from a service");
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/`;
  // The operator lets user-reachable traffic hit loopback, as a deployment with an internal service would.
  const egressAllowlist = (parseAllowlist("127.0.0.1") as { entries: AllowlistEntry[] }).entries;
  app = await createTestApp({
    egressAllowlist,
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-net", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
  await new Promise((resolve) => service.close(resolve));
});

const agent = (sandbox: unknown) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: [{ type: "builtin", name: "bash" }],
  runner: { permissions: { default: "allow" } },
  sandbox,
});
async function curl(
  sandbox: unknown,
  url = serviceUrl,
): Promise<{ status: number; events?: NativeEvent[]; body?: any; result?: { output: unknown; isError?: boolean } }> {
  model.script(
    {
      kind: "reply",
      text: "Fetching.",
      toolCalls: [{ id: "c_curl", name: "bash", input: { command: `curl -sS ${url}` } }],
    },
    { kind: "reply", text: "ok" },
  );
  const o = await invokeOver(live.origin, key, "sse", "native", {
    data: { inputs: { messages: [{ role: "user", content: "fetch" }] }, parameters: { agent: agent(sandbox) } },
  });
  if (o.status !== 200) return { status: o.status, body: o.batch };
  const result = o.events!.find((e) => e.type === "tool_result") as { output: unknown; isError?: boolean };
  return { status: 200, events: o.events, result };
}

it("network off, or no declared boundary: the shell has no network at all", async () => {
  for (const sandbox of [{ kind: "local" }, { kind: "local", permissions: { network: { mode: "off" } } }]) {
    const before = hits;
    const { result } = await curl(sandbox);
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining("curl: command not found") });
    expect(hits).toBe(before);
  }
});

it("network on: reachable through the egress guard, which still refuses what the operator did not allow", async () => {
  expect((await curl({ kind: "local", permissions: { network: { mode: "on" } } })).result).toMatchObject({
    isError: false,
    output: "hello from a service",
  });
  const metadata = await curl(
    { kind: "local", permissions: { network: { mode: "on" } } },
    "http://169.254.169.254/latest/meta-data/",
  );
  expect(metadata.result).toMatchObject({ isError: true });
  expect(String(metadata.result!.output)).toMatch(/169\.254\.169\.254|link-local|metadata/);
});

it("network allowlist: only the listed ranges", async () => {
  const before = hits;
  const outside = await curl({
    kind: "local",
    permissions: { network: { mode: "allowlist", allowlist: ["10.0.0.0/8"] } },
  });
  expect(outside.result).toMatchObject({
    isError: true,
    output: expect.stringContaining("outside the sandbox network allowlist"),
  });
  expect(hits).toBe(before);
  const inside = await curl({
    kind: "local",
    permissions: { network: { mode: "allowlist", allowlist: ["127.0.0.0/8"] } },
  });
  expect(inside.result).toMatchObject({ isError: false, output: "hello from a service" });
});

it("a boundary the local sandbox cannot apply: strict refuses before the run, best_effort runs and says so in a data frame", async () => {
  const strict = await curl({ kind: "local", permissions: { filesystem: "readonly", enforcement: "strict" } });
  expect(strict.status).toBe(400);
  expect(strict.body).toMatchObject({ code: "sandbox_boundary_unavailable" });
  expect(JSON.stringify(strict.body)).toContain("sandbox.permissions.filesystem");
  const relaxed = await curl({
    kind: "local",
    permissions: { filesystem: "readonly", enforcement: "best_effort", network: { mode: "off" } },
  });
  expect(relaxed.status).toBe(200);
  expect(relaxed.events![0]).toEqual({
    type: "data",
    name: "sandbox_boundary",
    data: { not_applied: [expect.stringContaining('filesystem "readonly"')] },
  });
});

it("daytona_sandbox stays refused before the run unless the deployment enables it", async () => {
  const refused = await curl({ kind: "daytona_sandbox" });
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: "sandbox_not_enabled" });
});
