import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { appFor, commitSomething, deliveriesOf, deliveryOf, drainUntil } from "../webhooks/helpers";

// Item 7 of the hardening issue: a secret never reaches a reader or a log line, whoever echoes it.
describe("a webhook endpoint that echoes what it was sent", () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await appFor(receiver);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  for (const mode of ["authorization", "signature"] as const) {
    it(`${mode} mode: the stored response excerpt holds neither the secret nor the signature`, async () => {
      const secret = `echoed-${mode}-secret-0123456789`;
      receiver.requests.length = 0;
      receiver.succeeded.length = 0;
      receiver.reply = (request) => ({
        status: 200,
        body: `got authorization=${request.headers.authorization} signature=${request.headers["x-service-signature"]} secret=${secret}`,
      });
      const p = { t, ...(await t.newProject("echo")) };
      const res = await t.call("POST", "/api/webhooks/subscriptions/", {
        key: p.key,
        body: { subscription: { name: `echo ${mode}`, data: { url: receiver.url(), auth_mode: mode } }, secret },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await commitSomething(p);
      await drainUntil(t, () => receiver.succeeded.length === 1);
      const [d] = await deliveriesOf(p);
      const attempt = (await deliveryOf(p, d.id)).attempts[0];
      const excerpt = attempt.response.body as string;
      expect(excerpt).toContain("[redacted]");
      expect(excerpt).not.toContain(secret);
      const signature = receiver.requests[0].headers["x-service-signature"];
      if (signature) expect(excerpt).not.toContain(String(signature));
    });
  }
});

describe("a provider whose error echoes the key", () => {
  const KEY = "sk-echoed-by-provider-0123456789";
  let model: ScriptedModelServer;
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    model = await startScriptedModelServer();
    const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
    app = await createTestApp({ egressAllowlist });
    ({ key } = await app.newProject());
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  it("the connection test answers why it failed without the key, and writes nothing to stdout or stderr but structured lines", async () => {
    const created = await app.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: {
        header: { name: "Echoing" },
        secret: { kind: "provider_key", data: { kind: "openai", provider: { key: KEY, url: model.baseUrl } } },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    model.script({ kind: "status", status: 401, message: `Incorrect API key provided: ${KEY}` });
    const written: string[] = [];
    const restore = [process.stdout, process.stderr].map((stream) => {
      const original = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      return () => (stream.write = original);
    });
    const consoleCalls: unknown[] = [];
    const originals = { error: console.error, log: console.log, warn: console.warn };
    for (const name of ["error", "log", "warn"] as const)
      console[name] = (...args: unknown[]) => void consoleCalls.push(args);
    try {
      const res = await app.call("POST", `/api/vault/v1/secrets/${created.body.secret.id}/test`, { key });
      expect(res.status).toBe(200);
      expect(res.body.test.ok).toBe(false);
      expect(JSON.stringify(res.body)).not.toContain(KEY);
    } finally {
      restore.forEach((r) => r());
      Object.assign(console, originals);
    }
    expect(consoleCalls).toEqual([]);
    expect(written.join("")).not.toContain(KEY);
  });

  it("the logger removes every secret the process opened from each line, whatever field holds it", () => {
    const script = `
      import { rememberSecret } from "./server/core/secret-masking/known-secrets.ts";
      import { logger } from "./server/core/logger.ts";
      rememberSecret("sk-opened-in-this-process-42");
      logger.error({ err: new Error("provider said: bad key sk-opened-in-this-process-42"), detail: { nested: "sk-opened-in-this-process-42" } }, "failed with sk-opened-in-this-process-42");
      logger.flush();
    `;
    const out = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, LOG_LEVEL: "info" },
      encoding: "utf8",
    });
    expect(out.stderr).toBe("");
    expect(out.stdout).toContain("[redacted]");
    expect(out.stdout).toContain("provider said: bad key");
    expect(out.stdout).not.toContain("sk-opened-in-this-process-42");
  });
});
