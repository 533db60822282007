import { eq } from "drizzle-orm";
import { vaultSecrets } from "@/server/db/schema";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/server/core/config";
import { onRunFinished, type RunRecord } from "@/server/agent-runs";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { checkUiChunks, sseData } from "../helpers/ui-stream-check";

const PLANTED = "sk-PLANTED-7c1d9e2f4a6b8c0d";
let app: TestApp;
let model: ScriptedModelServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  // The scripted server listens on loopback, which the egress guard refuses unless allowlisted.
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
  app = await createTestApp({
    egressAllowlist,
    providerEnv: { openai: { key: "sk-from-env", baseUrl: model.baseUrl } },
  });
  ({ key } = await app.newProject());
  ({ key: otherKey } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const providerKey = (name: string, provider: string, secret: string, url?: string) => ({
  header: { name, description: "test" },
  secret: { kind: "provider_key", data: { kind: provider, provider: { key: secret, ...(url ? { url } : {}) } } },
});
const vault = (method: string, path: string, body?: unknown, k = key) =>
  app.call(method, `/api/vault/v1/secrets/${path}`, { key: k, body });
const invoke = (agent: unknown, headers: Record<string, string> = {}) =>
  app.call("POST", "/services/agent/v0/invoke", {
    key,
    headers,
    body: {
      data: {
        inputs: { messages: [{ role: "user", content: "hi" }] },
        parameters: { agent: { tools: [], ...(agent as object) } },
      },
    },
  });

describe("the vault API", () => {
  it("stores, lists, reads, updates and deletes a secret without ever returning its key", async () => {
    const created = await vault("POST", "", providerKey("Work Anthropic", "anthropic", "sk-ant-secret-wxyz"));
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatchObject({
      slug: "work-anthropic",
      header: { name: "Work Anthropic", description: "test" },
      secret: { kind: "provider_key", data: { kind: "anthropic", provider: { key_hint: "…wxyz" } } },
    });
    const id = created.body.secret.id;
    const listed = await vault("GET", "");
    expect(listed.body.count).toBe(1);
    const updated = await vault("PUT", id, {
      header: { name: "Renamed" },
      secret: { kind: "provider_key", data: { kind: "anthropic", provider: {} } },
    });
    expect(updated.body.secret).toMatchObject({
      slug: "work-anthropic",
      header: { name: "Renamed" },
      secret: { data: { provider: { key_hint: "…wxyz" } } },
    });
    expect((await vault("GET", id, undefined, otherKey)).status).toBe(404);
    for (const res of [created, listed, updated, await vault("GET", id)])
      expect(JSON.stringify(res.body)).not.toContain("sk-ant-secret");
    const [row] = await app.database.db.select().from(vaultSecrets).where(eq(vaultSecrets.id, id));
    expect(row.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain("sk-ant-secret");
    expect((await vault("DELETE", id)).status).toBe(200);
    expect((await vault("GET", id)).status).toBe(404);
  });

  it("rejects bad input with the field named: provider, missing key, refused URLs, duplicate slug", async () => {
    const unknown = await vault("POST", "", providerKey("x", "acme", "k"));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].path).toBe("secret.data.kind");
    const noKey = await vault("POST", "", {
      header: { name: "nokey" },
      secret: { kind: "provider_key", data: { kind: "openai", provider: {} } },
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body.errors[0].path).toBe("secret.data.provider.key");
    for (const url of [
      "http://10.0.0.7/v1",
      "http://169.254.169.254/latest",
      "http://localhost:11434/v1",
      "ftp://example.com",
    ]) {
      const refused = await vault("POST", "", providerKey(`u ${url}`, "openai", "k", url));
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors[0].path).toBe("secret.data.provider.url");
    }
    expect((await vault("POST", "", providerKey("Dup", "openai", "k1"))).status).toBe(201);
    const dup = await vault("POST", "", providerKey("dup", "openai", "k2"));
    expect(dup.status).toBe(409);
    await vault("DELETE", (await vault("GET", "")).body.secrets.find((s: { slug: string }) => s.slug === "dup").id);
  });
});

describe("plain secrets (kind secret)", () => {
  const TOKEN = "lin_api_PLANTED_51c8e0f2";
  const plain = (name: string, value?: string | null) => ({
    header: { name },
    secret: { kind: "secret", data: value === undefined ? {} : { value } },
  });

  it("stores, lists, reads, rotates and deletes a plain secret, its value never in a response", async () => {
    const created = await vault("POST", "", plain("Linear token", TOKEN));
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatchObject({
      slug: "linear-token",
      header: { name: "Linear token" },
      secret: { kind: "secret", data: { value_hint: "…e0f2" } },
    });
    const id = created.body.secret.id;
    const [row] = await app.database.db.select().from(vaultSecrets).where(eq(vaultSecrets.id, id));
    expect(row).toMatchObject({ kind: "secret", provider: null });
    expect(row.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain("PLANTED");
    const listed = await vault("GET", "");
    expect(listed.body.secrets.find((s: { id: string }) => s.id === id)).toEqual(created.body.secret);
    const kept = await vault("PUT", id, {
      header: { name: "Linear token", description: "for the docs MCP server" },
      secret: { kind: "secret", data: {} },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.secret).toMatchObject({
      header: { description: "for the docs MCP server" },
      secret: { data: { value_hint: "…e0f2" } },
    });
    const rotated = await vault("PUT", id, plain("Linear token", "lin_api_ROTATED_000077aa"));
    expect(rotated.body.secret.secret.data).toEqual({ value_hint: "…77aa" });
    const read = await vault("GET", id);
    expect(read.body.secret.slug).toBe("linear-token");
    expect((await vault("GET", id, undefined, otherKey)).status).toBe(404);
    // A short value would be mostly given away by its tail, so it shows none.
    const pin = await vault("POST", "", plain("pin", "4821"));
    expect(pin.body.secret.secret).toEqual({ kind: "secret", data: {} });
    const deleted = await vault("DELETE", id);
    expect(deleted.status).toBe(200);
    for (const res of [created, listed, kept, rotated, read, pin, deleted]) {
      expect(JSON.stringify(res.body)).not.toContain("PLANTED");
      expect(JSON.stringify(res.body)).not.toContain("ROTATED");
      expect(JSON.stringify(res.body)).not.toContain("4821");
    }
    expect((await vault("GET", id)).status).toBe(404);
    await vault("DELETE", pin.body.secret.id);
  });

  it("refuses an empty or missing value, an oversized one, and a change of kind, naming the field", async () => {
    const empty = await vault("POST", "", plain("empty", ""));
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].path).toBe("secret.data.value");
    expect(empty.body.detail).toMatch(/secret\.data\.value must not be empty/);
    const missing = await vault("POST", "", plain("missing"));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: "missing_value",
      detail: "secret.data.value is required when creating a plain secret",
    });
    const huge = await vault("POST", "", plain("huge", "x".repeat(8193)));
    expect(huge.status).toBe(422);
    expect(huge.body.errors[0].path).toBe("secret.data.value");

    const stored = await vault("POST", "", plain("token", "tok-0123456789"));
    const emptied = await vault("PUT", stored.body.secret.id, plain("token", ""));
    expect(emptied.status).toBe(400);
    expect(emptied.body.errors[0].path).toBe("secret.data.value");
    const toKey = await vault("PUT", stored.body.secret.id, providerKey("token", "openai", "sk-x"));
    expect(toKey.status).toBe(400);
    expect(toKey.body).toMatchObject({
      code: "kind_change",
      detail: "secret.kind cannot change from secret to provider_key; create a new secret",
    });
    const provider = await vault("POST", "", providerKey("a key", "openai", "sk-y"));
    const toPlain = await vault("PUT", provider.body.secret.id, plain("a key", "v"));
    expect(toPlain.status).toBe(400);
    expect(toPlain.body.code).toBe("kind_change");
    await vault("DELETE", stored.body.secret.id);
    await vault("DELETE", provider.body.secret.id);
  });
});

describe("connection resolution", () => {
  it("never takes a plain secret for a model key, even one named like the provider", async () => {
    const named = await vault("POST", "", {
      header: { name: "openai" },
      secret: { kind: "secret", data: { value: "sk-plain-NOT-A-MODEL-KEY" } },
    });
    expect(named.status).toBe(201);
    model.script({ kind: "reply", text: "ok" });
    expect((await invoke({ llm: { provider: "openai", model: "gpt-5-mini" } })).status).toBe(200);
    expect(model.requests.at(-1)!.headers.authorization).toBe("Bearer sk-from-env");
    const bySlug = await invoke({ llm: { provider: "openai", model: "gpt-5-mini", connection: { slug: "openai" } } });
    expect(bySlug.status).toBe(400);
    expect(bySlug.body.detail).toBe(
      'llm.connection.slug "openai" names a plain secret, not a model connection; store the key as kind provider_key or custom_provider',
    );
    expect(JSON.stringify(model.requests)).not.toContain("NOT-A-MODEL-KEY");
    await vault("DELETE", named.body.secret.id);
  });

  it("uses the named slug, else the project's connection for the provider, else the environment key", async () => {
    model.script({ kind: "reply", text: "ok" });
    await invoke({ llm: { provider: "openai", model: "gpt-5-mini" } });
    expect(model.requests.at(-1)!.headers.authorization).toBe("Bearer sk-from-env");
    expect(model.requests.at(-1)!.path).toBe("/v1/responses");

    const project = await vault("POST", "", providerKey("Team OpenAI", "openai", "sk-team", model.baseUrl));
    await invoke({ llm: { provider: "openai", model: "gpt-5-mini" } });
    expect(model.requests.at(-1)!.headers.authorization).toBe("Bearer sk-team");

    const named = await vault("POST", "", providerKey("Work", "openai", "sk-work", model.baseUrl));
    await invoke({ llm: { provider: "openai", model: "gpt-5-mini", connection: { slug: "work" } } });
    expect(model.requests.at(-1)!.headers.authorization).toBe("Bearer sk-work");
    // A stored URL is deployment `custom`: OpenAI-compatible chat completions, not the Responses API.
    expect(model.requests.at(-1)!.path).toBe("/v1/chat/completions");

    const missing = await invoke({ llm: { provider: "openai", model: "gpt-5-mini", connection: { slug: "nope" } } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("unknown_connection");
    await vault("DELETE", project.body.secret.id);
    await vault("DELETE", named.body.secret.id);
  });

  it("finds a custom OpenAI-compatible provider by its models list and reaches it through the egress guard", async () => {
    const custom = await vault("POST", "", {
      header: { name: "Local Ollama" },
      secret: {
        kind: "custom_provider",
        data: {
          kind: "custom",
          provider: { url: model.baseUrl, extras: { user: "agent-svc" } },
          models: [{ slug: "llama3.2" }],
        },
      },
    });
    expect(custom.status).toBe(201);
    model.script({ kind: "reply", reasoning: "local thinking", text: "hello from llama" });
    const res = await invoke(
      { llm: { model: "llama3.2" } },
      { accept: "text/event-stream", "x-svc-messages-format": "ui_sdk" },
    );
    const { frames } = sseData(res.body);
    await checkUiChunks(frames);
    expect(
      frames
        .filter((f: any) => f.type === "text-delta")
        .map((f: any) => f.delta)
        .join(""),
    ).toBe("hello from llama");
    expect(
      frames
        .filter((f: any) => f.type === "reasoning-delta")
        .map((f: any) => f.delta)
        .join(""),
    ).toBe("local thinking");
    // A model without a catalog price reports tokens and no cost.
    expect((frames.at(-1) as any).messageMetadata.usage).toEqual({ input: 10, output: 5, total: 15 });
    expect(model.requests.at(-1)!.body).toMatchObject({ model: "llama3.2", user: "agent-svc" });
    expect(model.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it("refuses at run time, through the guarded fetch, a stored URL the allowlist no longer admits", async () => {
    const before = app.context.config.egressAllowlist;
    app.context.config.egressAllowlist = [];
    try {
      const seen = model.requests.length;
      const res = await invoke({ llm: { model: "llama3.2" } });
      expect(res.status).toBe(200);
      expect(res.body.data.outputs.errors[0]).toMatch(
        /^The custom connection `local-ollama` points at an address this server does not connect to \(.*loopback.*\); an operator can allow it with EGRESS_ALLOWLIST\.$/,
      );
      expect(model.requests.length).toBe(seen);
    } finally {
      app.context.config.egressAllowlist = before;
    }
  });

  it("never lets a planted key reach a response, an error text, the run record or the console", async () => {
    const records: RunRecord[] = [];
    onRunFinished((record) => {
      records.push(record);
    });
    const printed: unknown[] = [];
    const spies = (["log", "error", "warn", "info"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args) => printed.push(args)),
    );
    try {
      const created = await vault(
        "POST",
        "",
        providerKey("Planted", "groq", PLANTED, model.baseUrl.replace("/v1", "/openai/v1")),
      );
      model.script({ kind: "status", status: 401, message: `Invalid API Key: ${PLANTED}` });
      const outputs = [created.body, (await vault("GET", "")).body, (await vault("GET", created.body.secret.id)).body];
      for (const accept of ["application/json", "text/event-stream", "application/x-ndjson"]) {
        for (const format of ["native", "ui_sdk"]) {
          const res = await invoke(
            { llm: { provider: "groq", model: "llama-3.3-70b-versatile", connection: { slug: "planted" } } },
            { accept, "x-svc-messages-format": format },
          );
          expect(res.status).toBe(200);
          outputs.push(res.body, Object.fromEntries(res.headers));
          expect(JSON.stringify(res.body)).toContain("The groq connection `planted` was rejected by the provider: 401");
        }
      }
      expect(model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PLANTED}`);
      await new Promise((resolve) => setImmediate(resolve));
      expect(records.length).toBeGreaterThanOrEqual(6);
      for (const text of [JSON.stringify(outputs), JSON.stringify(records), JSON.stringify(printed)]) {
        expect(text).not.toContain(PLANTED);
        expect(text).not.toContain("PLANTED-7c1d");
      }
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });
});
