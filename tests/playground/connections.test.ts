import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { HttpClient } from "../helpers/http-client";

let t: TestApp;
let server: RunningServer;
let model: ScriptedModelServer;
let owner: HttpClient;
let viewer: HttpClient;

beforeAll(async () => {
  model = await startScriptedModelServer();
  // The scripted model listens on loopback, which user-supplied URLs may reach only when allowed.
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
  t = await createTestApp({ egressAllowlist });
  server = await serveOverHttp(t);
  owner = new HttpClient(server.origin);
  expect(
    (
      await owner.send("POST", "/api/accounts/owner", {
        body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      })
    ).status,
  ).toBe(201);
  const invite = await owner.mutate("members.invite", { role: "viewer" });
  viewer = new HttpClient(server.origin);
  const created = await viewer.send("POST", "/api/accounts/sign-up", {
    body: { name: "Vi", email: "vi@example.com", password: "another long password", invite_token: invite.data.token },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await model.close();
});

const openaiKey = () => ({
  header: { name: "Work OpenAI" },
  secret: {
    kind: "provider_key",
    data: { kind: "openai", provider: { key: "sk-secret-abcd1234", url: model.baseUrl } },
  },
});

describe("connections (the vault in the playground)", () => {
  let id: string;

  it("stores a provider key and lists it masked, to viewers too", async () => {
    const created = await owner.mutate("connections.create", openaiKey());
    expect(created.status).toBe(200);
    id = created.data.id;
    expect(JSON.stringify(created.data)).not.toContain("sk-secret-abcd1234");
    const listed = await viewer.query("connections.list");
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual([
      expect.objectContaining({
        id,
        header: { name: "Work OpenAI" },
        secret: { kind: "provider_key", data: { kind: "openai", provider: { url: model.baseUrl, key_hint: "…1234" } } },
      }),
    ]);
  });

  it("tests the connection through the run's path: the stored key reaches the model", async () => {
    model.script({ kind: "reply", text: "OK" });
    const tested = await owner.mutate("connections.test", { id });
    expect(tested.data).toMatchObject({ ok: true, model: "gpt-5-nano" });
    expect(model.requests.at(-1)!.headers.authorization).toBe("Bearer sk-secret-abcd1234");
  });

  it("reports a rejected key in words, never the provider's body", async () => {
    model.script({ kind: "status", status: 401, message: "bad key sk-secret-abcd1234" });
    const tested = await owner.mutate("connections.test", { id });
    expect(tested.data.ok).toBe(false);
    expect(tested.data.message).toMatch(/rejected by the provider: 401\. Check the key/);
    expect(tested.data.message).not.toContain("sk-secret");
  });

  it("the REST door answers the same test with an API key", async () => {
    model.script({ kind: "reply", text: "OK" });
    const key = await owner.mutate("apiKeys.create", { name: "ci" });
    const r = await owner.send("POST", `/api/vault/v1/secrets/${id}/test`, {
      headers: { authorization: `ApiKey ${key.data.key}` },
      origin: null,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 1, test: { ok: true } });
  });

  it("viewers cannot change or test connections", async () => {
    expect((await viewer.mutate("connections.test", { id })).status).toBe(403);
    expect((await viewer.mutate("connections.create", openaiKey())).status).toBe(403);
    expect((await viewer.mutate("connections.delete", { id })).status).toBe(403);
  });

  it("names the field of a bad connection with 422, and a missing one is 404", async () => {
    const bad = await owner.mutate("connections.create", {
      header: { name: "" },
      secret: { kind: "provider_key", data: { kind: "openai", provider: { key: "k" } } },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.error)).toContain("header.name");
    expect((await owner.mutate("connections.test", { id: "0190a4b2-7c3d-7e8f-9a0b-1c2d3e4f5a6b" })).status).toBe(404);
  });

  it("updates without resending the key, and deletes", async () => {
    const input = openaiKey();
    const updated = await owner.mutate("connections.update", {
      id,
      secret: {
        ...input,
        header: { name: "Renamed" },
        secret: { ...input.secret, data: { kind: "openai", provider: { url: model.baseUrl } } },
      },
    });
    expect(updated.data).toMatchObject({
      header: { name: "Renamed" },
      secret: { data: { provider: { key_hint: "…1234" } } },
    });
    expect((await owner.mutate("connections.delete", { id })).status).toBe(200);
    expect((await owner.query("connections.list")).data).toEqual([]);
  });
});

describe("plain secrets (the Secrets section)", () => {
  const token = (value: string) => ({ header: { name: "GitHub token" }, secret: { kind: "secret", data: { value } } });

  it("are listed apart from model connections, masked, to viewers too; only members create, rotate, delete", async () => {
    const created = await owner.mutate("connections.create", token("ghp_PLANTED_aaaa0001"));
    expect(created.status).toBe(200);
    const id = created.data.id;
    expect((await viewer.query("connections.list")).data).toEqual([]);
    const listed = await viewer.query("connections.secrets");
    expect(listed.data).toEqual([
      expect.objectContaining({
        id,
        slug: "github-token",
        header: { name: "GitHub token" },
        secret: { kind: "secret", data: { value_hint: "…0001" } },
      }),
    ]);
    expect((await viewer.mutate("connections.create", token("ghp_other_value_000"))).status).toBe(403);
    expect((await viewer.mutate("connections.update", { id, secret: token("ghp_viewer_value_00") })).status).toBe(403);
    expect((await viewer.mutate("connections.delete", { id })).status).toBe(403);
    const rotated = await owner.mutate("connections.update", { id, secret: token("ghp_ROTATED_bbbb0002") });
    expect(rotated.data.secret).toEqual({ kind: "secret", data: { value_hint: "…0002" } });
    const tested = await owner.mutate("connections.test", { id });
    expect(tested.status).toBe(400);
    expect(tested.error?.message).toContain("is a plain secret, not a model connection");
    const deleted = await owner.mutate("connections.delete", { id });
    for (const r of [created, listed, rotated, deleted]) expect(JSON.stringify(r.data)).not.toMatch(/PLANTED|ROTATED/);
    expect((await owner.query("connections.secrets")).data).toEqual([]);
  });
});
