import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import type { AppContext } from "@/server/core/app-context";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";
import { errorOf, evaluate, outputsOf } from "./run";

const WEBHOOK = "svc:builtin:auto_webhook_test:v0";
const HOOK = "svc:custom:hook:v0";
let receiver: WebhookReceiver;
let app: AppContext;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const config = loadConfig({ EGRESS_ALLOWLIST: "localhost" });
  app = { config: { ...config, egressCa: [receiver.certificate.cert] } } as AppContext;
});
afterAll(async () => {
  await receiver?.close();
});

const answer = (status: number, body: string, delayMs?: number) => {
  receiver.reply = () => ({ status, body, delayMs });
};
const webhook = (parameters: Record<string, unknown> = {}, timeoutMs?: number) =>
  evaluate(
    WEBHOOK,
    { webhook_url: receiver.url("/score"), ...parameters },
    { question: "Capital?", correct_answer: "Paris" },
    { answer: "Paris" },
    { app, timeoutMs },
  );

describe("webhook evaluators", () => {
  it("auto_webhook_test posts inputs and the output as text; a number, boolean or object answer is the verdict", async () => {
    answer(200, "0.8");
    expect(await outputsOf(webhook())).toEqual({ score: 0.8, success: true });
    const sent = receiver.requests.at(-1)!;
    expect(sent.path).toBe("/score");
    expect(JSON.parse(sent.rawBody)).toEqual({
      inputs: { question: "Capital?", correct_answer: "Paris" },
      output: '{"answer":"Paris"}',
    });
    answer(200, "0.4");
    expect(await outputsOf(webhook({ threshold: 0.3 }))).toEqual({ score: 0.4, success: true });
    answer(200, "false");
    expect(await outputsOf(webhook())).toEqual({ score: 0, success: false });
    answer(200, '{"score": 0.2, "why": "short"}');
    expect(await outputsOf(webhook())).toEqual({ score: 0.2, why: "short", success: false });
    answer(200, '"fine"');
    expect(await outputsOf(webhook())).toEqual({ result: "fine" });
  });

  it("failures say what went wrong; 5xx, 429 and timeouts are retryable", async () => {
    answer(200, "not json");
    expect((await errorOf(webhook())).code).toBe("invalid_webhook_answer");
    answer(503, "down");
    expect(await errorOf(webhook())).toMatchObject({
      code: "webhook_failed",
      retryable: true,
      message: `the webhook ${receiver.url("/score")} answered with status 503`,
    });
    answer(404, "no");
    expect((await errorOf(webhook())).retryable).toBeUndefined();
    receiver.reply = () => ({ status: 302, location: "https://localhost/elsewhere" });
    expect((await errorOf(webhook())).message).toContain("redirects are not followed");
    answer(200, "1".repeat(1024 * 1024 + 10));
    expect((await errorOf(webhook())).code).toBe("webhook_reply_too_large");
    answer(200, "1", 2_000);
    expect(await errorOf(webhook({}, 150))).toMatchObject({ code: "webhook_timeout", retryable: true });
    expect((await errorOf(webhook({ webhook_url: "http://localhost/x" }))).message).toBe(
      'parameter webhook_url "http://localhost/x" must use https',
    );
    expect((await errorOf(webhook({ webhook_url: "https://169.254.169.254/latest" }))).message).toContain("is refused");
    expect((await errorOf(webhook({ webhook_url: undefined }))).message).toContain("webhook_url is required");
  });

  it("without EGRESS_ALLOWLIST a loopback endpoint is refused", async () => {
    const strict = { config: { ...loadConfig({}), egressCa: [receiver.certificate.cert] } } as AppContext;
    const before = receiver.requests.length;
    const local = await errorOf(evaluate(WEBHOOK, { webhook_url: receiver.url("/x") }, {}, "a", { app: strict }));
    expect(local.message).toContain("is refused");
    const literal = await errorOf(
      evaluate(WEBHOOK, { webhook_url: `https://127.0.0.1:${receiver.port}/x` }, {}, "a", { app: strict }),
    );
    expect(literal.message).toContain("is refused");
    expect(receiver.requests.length).toBe(before);
  });

  it("svc:custom:hook:v0 posts inputs, parameters, outputs and trace to <url>/invoke with the revision's headers", async () => {
    answer(200, '{"score": 0.9, "label": "good"}');
    const data = { url: receiver.url("/svc/"), headers: { authorization: "Bearer hook-token" } };
    const outcome = await outputsOf(
      evaluate(HOOK, { strict: true }, { q: "x" }, "out", { app, data, trace: { trace_id: "t1" } }),
    );
    expect(outcome).toEqual({ score: 0.9, label: "good", success: true });
    const sent = receiver.requests.at(-1)!;
    expect(sent.path).toBe("/svc/invoke");
    expect(sent.headers.authorization).toBe("Bearer hook-token");
    expect(JSON.parse(sent.rawBody)).toEqual({
      inputs: { q: "x" },
      parameters: { strict: true },
      outputs: "out",
      trace: { trace_id: "t1" },
      testcase: { q: "x" },
    });
    answer(200, "plain words");
    expect(await outputsOf(evaluate(HOOK, {}, {}, "out", { app, data }))).toEqual({ result: "plain words" });
    expect((await errorOf(evaluate(HOOK, {}, {}, "out", { app }))).message).toContain("no data.url");
  });
});
