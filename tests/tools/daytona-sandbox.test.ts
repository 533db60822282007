import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { sandboxName } from "@/server/sandbox/daytona";
import type { NativeEvent } from "@/server/streams";
import { invokeOver } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { startFakeDaytona } from "./fake-daytona";

const DAYTONA_KEY = "dtn_test-key-3b9e1f";
const PROVIDER_KEY = "sk-provider-never-in-the-sandbox-51c2";
const PLAIN_SECRET = "plain-secret-value-9d0a";
let app: TestApp;
let wrongKey: TestApp;
let live: RunningServer;
let wrongLive: RunningServer;
let model: ScriptedModelServer;
let daytona: Awaited<ReturnType<typeof startFakeDaytona>>;
let key: string;
let projectId: string;
let wrongKeyKey: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  daytona = await startFakeDaytona(DAYTONA_KEY);
  const defaults = loadConfig({});
  // The external harness is enabled so that its refusal of the hosted sandbox is what answers.
  const base = {
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: PROVIDER_KEY, baseUrl: model.baseUrl } },
    externalHarness: { ...defaults.externalHarness, enabled: true },
  };
  const sandbox = (apiKey: string) =>
    loadConfig({
      SANDBOX_PROVIDERS: "local,daytona_sandbox",
      DAYTONA_API_KEY: apiKey,
      DAYTONA_API_URL: daytona.apiUrl,
      SANDBOX_COMMAND_TIMEOUT_MS: "3000",
    }).sandbox;
  app = await createTestApp({ ...base, sandbox: sandbox(DAYTONA_KEY) });
  wrongKey = await createTestApp({ ...base, sandbox: sandbox("dtn_wrong") });
  live = await serveOnLoopback(app.handle);
  wrongLive = await serveOnLoopback(wrongKey.handle);
  ({ key, projectId } = await app.newProject());
  ({ key: wrongKeyKey } = await wrongKey.newProject());
  const stored = await app.call("POST", "/api/vault/v1/secrets/", {
    key,
    body: { header: { name: "work" }, secret: { kind: "secret", data: { value: PLAIN_SECRET } } },
  });
  expect(stored.status).toBe(201);
});
afterAll(async () => {
  await live.close();
  await wrongLive.close();
  await app.close();
  await wrongKey.close();
  await model.close();
  await daytona.close();
});

const BUILTINS = ["read", "write", "edit", "ls", "bash"].map((name) => ({ type: "builtin", name }));
const agent = (sandbox: Record<string, unknown>, tools: unknown[] = BUILTINS) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools,
  runner: { permissions: { default: "allow" } },
  sandbox: { kind: "daytona_sandbox", ...sandbox },
});
const body = (session: string, template: unknown) => ({
  session_id: session,
  data: { inputs: { messages: [{ role: "user", content: "work" }] }, parameters: { agent: template } },
});
const results = (events: NativeEvent[]) =>
  Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.id, { output: e.output, isError: e.isError }]),
  );
async function turn(
  session: string,
  template: unknown,
  calls: Array<{ id: string; name: string; input: unknown }>,
  origin = live.origin,
  apiKey = key,
) {
  model.script({ kind: "reply", toolCalls: calls }, { kind: "reply", text: "Done." });
  return invokeOver(origin, apiKey, "sse", "native", body(session, template));
}
const recorded = (from: number) => daytona.calls.slice(from);

describe("sandbox.kind daytona_sandbox", () => {
  it("runs the bash tool in the session's own Daytona sandbox, created from the template's snapshot, with no key and no network inside", async () => {
    const from = daytona.calls.length;
    const o = await turn("s-one", agent({ extras: { snapshot: "svc-python-3.12" } }), [
      { id: "c_bash", name: "bash", input: { command: "printf 'hi there' > note.txt && cat note.txt && echo && pwd" } },
    ]);
    expect(o.status, JSON.stringify(o.batch)).toBe(200);
    expect(results(o.events!).c_bash).toEqual({ output: "hi there\n/workspace\n", isError: false });

    const created = recorded(from).filter((c) => c.method === "POST" && c.path === "/api/sandbox");
    expect(created).toHaveLength(1);
    expect(created[0].body).toMatchObject({
      name: sandboxName(projectId, "s-one"),
      snapshot: "svc-python-3.12",
      labels: { "svc.project": projectId, "svc.session": "s-one" },
      env: {},
      networkBlockAll: true,
      autoStopInterval: 15,
      autoDeleteInterval: 7 * 24 * 60 - 15,
    });
    const sandbox = [...daytona.sandboxes.values()].find((s) => s.name === sandboxName(projectId, "s-one"))!;
    // The file lives on the sandbox's disk, not in this service's database.
    expect(readFileSync(join(sandbox.root, "workspace/note.txt"), "utf8")).toBe("hi there");
    const executed = recorded(from).filter((c) => c.path === `/toolbox/${sandbox.id}/process/execute`);
    expect(executed.length).toBeGreaterThanOrEqual(2);
    expect(executed.every((c) => c.body.cwd === undefined || c.body.cwd === "/workspace")).toBe(true);
    // Every call carries the deployment's Daytona key; the provider key appears nowhere.
    expect(recorded(from).every((c) => c.authorization === `Bearer ${DAYTONA_KEY}`)).toBe(true);
    expect(JSON.stringify(daytona.calls)).not.toContain(PROVIDER_KEY);
  });

  it("a later turn reuses the sandbox, starting it when Daytona stopped it for idleness; the file tools read and write its disk", async () => {
    const sandbox = [...daytona.sandboxes.values()].find((s) => s.name === sandboxName(projectId, "s-one"))!;
    sandbox.state = "stopped";
    const from = daytona.calls.length;
    const o = await turn("s-one", agent({ extras: { snapshot: "svc-python-3.12" } }), [
      { id: "c_read", name: "read", input: { path: "note.txt" } },
      { id: "c_write", name: "write", input: { path: "src/app.ts", content: "const a = 1;\nconst b = 2;\n" } },
      { id: "c_edit", name: "edit", input: { path: "src/app.ts", old_string: "b = 2", new_string: "b = 3" } },
      { id: "c_ls", name: "ls", input: { path: "src" } },
      { id: "c_escape", name: "read", input: { path: "../etc/passwd" } },
    ]);
    expect(o.status, JSON.stringify(o.batch)).toBe(200);
    const out = results(o.events!);
    expect(out.c_read).toEqual({ output: "     1\thi there", isError: false });
    expect(out.c_write).toEqual({ output: "wrote 26 bytes to src/app.ts", isError: false });
    expect(out.c_edit).toEqual({ output: "edited src/app.ts", isError: false });
    expect(String(out.c_ls.output)).toContain("app.ts");
    expect(out.c_escape).toMatchObject({ isError: true, output: expect.stringContaining("outside the workspace") });
    expect(readFileSync(join(sandbox.root, "workspace/src/app.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\n");
    const calls = recorded(from);
    expect(calls.filter((c) => c.method === "POST" && c.path === "/api/sandbox")).toHaveLength(0);
    expect(calls.filter((c) => c.path === `/api/sandbox/${sandbox.id}/start`)).toHaveLength(1);
    expect(
      calls.some(
        (c) =>
          c.path.endsWith("/files/bulk-upload") && c.body["/workspace/src/app.ts"] === "const a = 1;\nconst b = 2;\n",
      ),
    ).toBe(true);
    expect(sandbox.state).toBe("started");

    // Creation settings belong to the sandbox: other extras on the same session say what to do.
    const other = await turn("s-one", agent({ extras: { snapshot: "svc-node-22" } }), [
      { id: "c_other", name: "bash", input: { command: "true" } },
    ]);
    expect(results(other.events!).c_other).toMatchObject({
      isError: true,
      output: expect.stringContaining("created with other sandbox.extras; start a new session"),
    });
  });

  it("each session has its own sandbox, and a session's changed network policy is applied to it", async () => {
    const o = await turn("s-two", agent({ permissions: { network: { mode: "on" } } }), [
      { id: "c_bash", name: "bash", input: { command: "ls note.txt" } },
    ]);
    expect(results(o.events!).c_bash).toMatchObject({ isError: true, output: expect.stringContaining("No such file") });
    const two = [...daytona.sandboxes.values()].find((s) => s.name === sandboxName(projectId, "s-two"))!;
    expect(two.created).toMatchObject({ networkBlockAll: false });
    expect(two.created.networkAllowList).toBeUndefined();

    const from = daytona.calls.length;
    await turn("s-two", agent({ permissions: { network: { mode: "allowlist", allowlist: ["203.0.113.0/24"] } } }), [
      { id: "c_bash", name: "bash", input: { command: "true" } },
    ]);
    expect(recorded(from).find((c) => c.path === `/api/sandbox/${two.id}/network-settings`)?.body).toEqual({
      networkBlockAll: false,
      networkAllowList: "203.0.113.0/24",
    });
  });

  it("what Daytona cannot enforce: strict refuses before the run, best_effort runs narrower and says so; managed extras are refused", async () => {
    const permissions = { network: { mode: "allowlist", allowlist: ["198.51.100.0/24", "2001:db8::/32"] } };
    const from = daytona.calls.length;
    const strict = await turn("s-strict", agent({ permissions: { ...permissions, enforcement: "strict" } }), []);
    expect(strict.status).toBe(400);
    expect(strict.batch).toMatchObject({
      code: "sandbox_boundary_unavailable",
      detail: expect.stringContaining("IPv4 ranges only"),
    });
    expect(recorded(from)).toHaveLength(0);

    const relaxed = await turn("s-relaxed", agent({ permissions: { ...permissions, enforcement: "best_effort" } }), [
      { id: "c_bash", name: "bash", input: { command: "true" } },
    ]);
    expect(relaxed.status).toBe(200);
    expect(relaxed.events![0]).toEqual({
      type: "data",
      name: "sandbox_boundary",
      data: { not_applied: [expect.stringContaining('"2001:db8::/32"')] },
    });
    const created = recorded(from).find((c) => c.method === "POST" && c.path === "/api/sandbox")!;
    expect(created.body).toMatchObject({
      name: sandboxName(projectId, "s-relaxed"),
      networkBlockAll: false,
      networkAllowList: "198.51.100.0/24",
    });

    const env = await turn("s-env", agent({ extras: { envVars: { OPENAI_API_KEY: "x" } } }), []);
    expect(env.status).toBe(400);
    expect(env.batch).toMatchObject({
      code: "invalid_sandbox_extras",
      detail: expect.stringContaining("sandbox.extras.envVars"),
    });
    const unknown = await turn("s-env", agent({ extras: { snapshots: "typo" } }), []);
    expect(unknown.status).toBe(400);
    expect(unknown.batch.detail).toContain("snapshot, image");
  });

  it("code tools run in the sandbox (python3 and node), with a plain secret for that command only; a provider key is never given to it", async () => {
    const add = {
      type: "code",
      name: "add",
      runtime: "python",
      script:
        'import os\n\ndef main(a, b):\n    return {"sum": a + b, "work": os.environ.get("WORK") == "' +
        PLAIN_SECRET +
        '", "cwd": os.getcwd()}\n',
      input_schema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      secrets: ["work"],
    };
    const double = {
      type: "code",
      name: "double",
      runtime: "node",
      script: "async function main(inputs) { return { n: inputs.n * 2, node: typeof process.versions.node } }",
      input_schema: { type: "object", properties: { n: { type: "number" } } },
    };
    const o = await turn("s-code", agent({}, [add, double]), [
      { id: "c_add", name: "add", input: { a: 2, b: 3 } },
      { id: "c_double", name: "double", input: { n: 21 } },
    ]);
    expect(o.status, JSON.stringify(o.batch)).toBe(200);
    const out = results(o.events!);
    expect(out.c_add).toEqual({ output: { sum: 5, work: true, cwd: "/workspace" }, isError: false });
    expect(out.c_double).toEqual({ output: { n: 42, node: "string" }, isError: false });

    const stored = await app.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: {
        header: { name: "openai-key" },
        secret: { kind: "provider_key", data: { kind: "openai", provider: { key: PROVIDER_KEY } } },
      },
    });
    expect(stored.status).toBe(201);
    const refused = await turn("s-code", agent({}, [{ ...add, secrets: ["openai-key"] }]), []);
    expect(refused.status).toBe(400);
    expect(refused.batch).toMatchObject({
      code: "secret_not_allowed",
      detail: expect.stringContaining("provider keys never enter"),
    });
    // The stored key would otherwise become the project's openai connection for the turns below.
    expect((await app.call("DELETE", `/api/vault/v1/secrets/${stored.body.secret.id}`, { key })).status).toBe(200);
    expect(JSON.stringify(daytona.calls)).not.toContain(PROVIDER_KEY);
  });

  it("skills are laid in the sandbox's workspace with their modes, and the template's copy wins on the next turn", async () => {
    const skill = {
      name: "pdf-tools",
      description: "Fill PDF forms.",
      body: "# Filling forms",
      allow_executable_files: true,
      files: [{ path: "scripts/fill.sh", content: "#!/bin/sh\necho filled\n", executable: true }],
    };
    const template = { ...agent({}), skills: [skill] };
    const first = await turn("s-skills", template, [
      {
        id: "c_run",
        name: "bash",
        input: {
          command:
            "echo changed > skills/pdf-tools/SKILL.md; ./skills/pdf-tools/scripts/fill.sh && stat -c '%a' skills/pdf-tools/scripts/fill.sh",
        },
      },
    ]);
    expect(results(first.events!).c_run).toEqual({ output: "filled\n755\n", isError: false });
    const second = await turn("s-skills", template, [
      { id: "c_read", name: "read", input: { path: "skills/pdf-tools/SKILL.md" } },
    ]);
    expect(String(results(second.events!).c_read.output)).toContain("# Filling forms");
  });

  it("a command past SANDBOX_COMMAND_TIMEOUT_MS is stopped by Daytona and reported as a timeout; the external harness cannot claim the hosted sandbox", async () => {
    const o = await turn("s-slow", agent({}), [{ id: "c_slow", name: "bash", input: { command: "sleep 10" } }]);
    expect(o.status, JSON.stringify(o.batch ?? o.events)).toBe(200);
    expect(results(o.events!).c_slow).toMatchObject({
      isError: true,
      output: expect.stringContaining("command stopped after 3000 ms (SANDBOX_COMMAND_TIMEOUT_MS)"),
    });
    const executed = daytona.calls.filter((c) => c.path.endsWith("/process/execute")).at(-1)!;
    expect(executed.body.timeout).toBe(3);

    const external = await turn("s-claude", { ...agent({}, []), harness: { kind: "external_harness" } }, []);
    expect(external.status).toBe(400);
    expect(external.batch).toMatchObject({
      code: "sandbox_not_supported",
      detail: expect.stringContaining("runs its tools on this host"),
    });
  });

  it("a key Daytona refuses is an error result naming DAYTONA_API_KEY, never a broken stream", async () => {
    const o = await turn(
      "s-denied",
      agent({}),
      [{ id: "c_bash", name: "bash", input: { command: "true" } }],
      wrongLive.origin,
      wrongKeyKey,
    );
    expect(o.status).toBe(200);
    expect(results(o.events!).c_bash).toMatchObject({
      isError: true,
      output: expect.stringContaining("Daytona refused this deployment's DAYTONA_API_KEY (401)"),
    });
  });
});
