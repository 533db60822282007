import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { startScriptedModelServer, type ScriptedModelServer } from "../../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../../helpers/test-app";
import { errorOf, evaluate, outputsOf } from "./run";

const JUDGE = "svc:builtin:auto_ai_critique:v0";
let app: TestApp;
let model: ScriptedModelServer;
let projectId: string;

const prompt = [
  { role: "system", content: "Grade the answer. Reply with JSON." },
  { role: "user", content: "Question: {{question}}\nAnswer: {{outputs}}\nExpected: {{correct_answer}}" },
];

beforeAll(async () => {
  model = await startScriptedModelServer();
  // The scripted server listens on loopback, which the egress guard refuses unless allowlisted.
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
  app = await createTestApp({ egressAllowlist });
  const project = await app.newProject();
  projectId = project.projectId;
  const stored = await app.call("POST", "/api/vault/v1/secrets/", {
    key: project.key,
    body: {
      header: { name: "Judge" },
      secret: {
        kind: "provider_key",
        data: { kind: "openai", provider: { key: "sk-judge-PLANTED", url: model.baseUrl } },
      },
    },
  });
  expect(stored.status).toBe(201);
  const claude = await app.call("POST", "/api/vault/v1/secrets/", {
    key: project.key,
    body: {
      header: { name: "Claude judge" },
      secret: {
        kind: "provider_key",
        data: { kind: "anthropic", provider: { key: "sk-ant-PLANTED", url: model.baseUrl } },
      },
    },
  });
  expect(claude.status).toBe(201);
});
afterAll(async () => {
  await app?.close();
  await model?.close();
});

const judge = (parameters: Record<string, unknown>, extra: { signal?: AbortSignal; timeoutMs?: number } = {}) =>
  evaluate(
    JUDGE,
    { prompt_template: prompt, model: "openai/gpt-4o-mini", ...parameters },
    { question: "Capital of France?", correct_answer: "Paris" },
    "Paris",
    {
      app: app.context,
      projectId,
      ...extra,
    },
  );

describe("LLM-as-a-judge", () => {
  it("renders the prompt, asks for the grade schema through the project's connection, and reads the grade", async () => {
    model.script({ kind: "reply", text: '{"score": 0.8}', usage: { input: 42, output: 7 } });
    const outcome = await judge({});
    expect(outcome).toMatchObject({
      status: "success",
      outputs: { score: 0.8, success: true },
      usage: { promptTokens: 42, completionTokens: 7 },
    });
    const request = model.requests.at(-1)!;
    expect(request.headers.authorization).toBe("Bearer sk-judge-PLANTED");
    expect(request.body.model).toBe("gpt-4o-mini");
    expect(request.body.messages).toEqual([
      { role: "system", content: "Grade the answer. Reply with JSON." },
      { role: "user", content: "Question: Capital of France?\nAnswer: Paris\nExpected: Paris" },
    ]);
    expect(request.body.response_format.type).toBe("json_schema");
    expect(request.body.response_format.json_schema.schema.required).toEqual(["score"]);
  });

  it("a reference-style json_schema, an object verdict, a fenced answer and json_object", async () => {
    const schema = {
      name: "schema",
      strict: true,
      schema: {
        type: "object",
        properties: { score: { type: "boolean" } },
        required: ["score"],
        additionalProperties: false,
      },
    };
    model.script({ kind: "reply", text: '```json\n{"score": false, "comment": "wrong"}\n```' });
    expect(await outputsOf(judge({ json_schema: schema }))).toEqual({ score: false, comment: "wrong", success: false });
    expect(model.requests.at(-1)!.body.response_format.json_schema.schema.properties.score.type).toBe("boolean");
    model.script({ kind: "reply", text: '{"verdict": "ok"}' });
    expect(await outputsOf(judge({ response_type: "json_object" }))).toEqual({ verdict: "ok" });
    expect(model.requests.at(-1)!.body.response_format).toEqual({ type: "json_object" });
  });

  it("any provider connection of the project: an Anthropic judge named by its connection slug", async () => {
    model.script({ kind: "reply", text: '{"score": 0.6}' });
    expect(await outputsOf(judge({ model: "anthropic/claude-sonnet-4-5", connection: "claude-judge" }))).toEqual({
      score: 0.6,
      success: true,
    });
    const request = model.requests.at(-1)!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("sk-ant-PLANTED");
    expect(request.body.system).toEqual([{ type: "text", text: "Grade the answer. Reply with JSON." }]);
  });

  it("text answers: a number against the threshold, a boolean, fstring templates by version", async () => {
    model.script({ kind: "reply", text: " 0.3 " });
    expect(await outputsOf(judge({ response_type: "text", threshold: 0.25 }))).toEqual({ score: 0.3, success: true });
    expect(model.requests.at(-1)!.body.response_format).toBeUndefined();
    model.script({ kind: "reply", text: "true" });
    const fstring = [
      { role: "user", content: 'Is {prediction} right for {question}? {"answer": bool} {ground_truth}' },
    ];
    expect(
      await outputsOf(judge({ version: "2", prompt_template: fstring, correct_answer_key: "correct_answer" })),
    ).toEqual({ score: 1, success: true });
    expect(model.requests.at(-1)!.body.messages[0].content).toBe(
      'Is Paris right for Capital of France?? {"answer": bool} Paris',
    );
  });

  it("an answer that is no grade, a missing placeholder or credential is a failure that says what to do", async () => {
    model.script({ kind: "reply", text: "The answer looks good." });
    const prose = await errorOf(judge({}));
    expect(prose.code).toBe("invalid_judge_answer");
    expect(prose.message).toContain("not a JSON number, boolean or object");
    const hole = await errorOf(judge({ prompt_template: [{ role: "user", content: "{{nope}}" }] }));
    expect(hole.message).toContain("prompt_template[0].content uses the placeholder {{nope}}");
    const noKey = await errorOf(judge({ model: "mistral/mistral-large-latest" }));
    expect(noKey.code).toBe("missing_connection");
    expect(noKey.message).toContain("No mistral key");
    expect(noKey.message).toContain("add one under Settings → Connections");
    const badSlug = await errorOf(judge({ connection: "nope" }));
    expect(badSlug.message).toContain('"nope" names no stored connection');
    expect((await errorOf(judge({ prompt_template: [] }))).message).toContain(
      "prompt_template must be a non-empty list",
    );
  });

  it("rate limits, 5xx and timeouts are retryable; a rejected key is not; a stop cancels", async () => {
    model.script({ kind: "status", status: 429 });
    expect(await errorOf(judge({}))).toMatchObject({ code: "provider_rate_limited", retryable: true });
    model.script({ kind: "status", status: 503 });
    expect(await errorOf(judge({}))).toMatchObject({ code: "provider_error", retryable: true });
    model.script({ kind: "status", status: 401 });
    const rejected = await errorOf(judge({}));
    expect(rejected.retryable).toBeUndefined();
    expect(rejected.message).toContain("rejected the credential (401)");
    expect(rejected.message).not.toContain("sk-judge");
    model.script({ kind: "hang" });
    expect(await errorOf(judge({}, { timeoutMs: 200 }))).toMatchObject({ code: "provider_timeout", retryable: true });
    const stop = new AbortController();
    const pending = judge({}, { signal: stop.signal });
    await model.nextRequest();
    const closed = model.nextAbort();
    stop.abort();
    expect((await errorOf(pending)).code).toBe("cancelled");
    // The in-flight request itself was dropped, not left to finish.
    await closed;
  });
});

describe("semantic similarity", () => {
  const SEMANTIC = "svc:builtin:auto_semantic_similarity:v0";
  const similar = (parameters: Record<string, unknown>, outputs: unknown, extra: { timeoutMs?: number } = {}) =>
    evaluate(SEMANTIC, parameters, { correct_answer: "The capital is Paris" }, outputs, {
      app: app.context,
      projectId,
      ...extra,
    });

  it("embeds output and answer through the project's OpenAI connection and scores their cosine", async () => {
    model.script({ kind: "reply", text: "unused" });
    const same = await similar({}, "the capital is paris");
    expect(same).toMatchObject({ status: "success", outputs: { success: true } });
    expect((same as unknown as { outputs: { score: number } }).outputs.score).toBeCloseTo(1, 10);
    const request = model.requests.at(-1)!;
    expect(request.path).toBe("/v1/embeddings");
    expect(request.body).toMatchObject({
      model: "text-embedding-3-small",
      input: ["the capital is paris", "The capital is Paris"],
    });
    const far = await outputsOf(
      similar({ threshold: 0.9, embedding_model: "openai/text-embedding-3-large" }, "zzz qqq"),
    );
    expect(far.success).toBe(false);
    expect(far.score as number).toBeLessThan(0.5);
    expect(model.requests.at(-1)!.body.model).toBe("text-embedding-3-large");
  });

  it("providers without embeddings, rate limits and timeouts are failures with the reason", async () => {
    const anthropic = await errorOf(similar({ embedding_model: "anthropic/claude-sonnet-4-5" }, "x"));
    expect(anthropic.message).toBe(
      "the anthropic provider offers no embedding models here; use one of openai, gemini, mistral, together_ai, custom for embedding_model",
    );
    expect((await errorOf(similar({ embedding_model: "mistral/mistral-embed" }, "x"))).code).toBe("missing_connection");
    model.script({ kind: "status", status: 429 });
    expect(await errorOf(similar({}, "x"))).toMatchObject({ code: "provider_rate_limited", retryable: true });
    model.script({ kind: "hang" });
    expect(await errorOf(similar({}, "x", { timeoutMs: 200 }))).toMatchObject({
      code: "provider_timeout",
      retryable: true,
    });
    model.script({ kind: "reply", text: "unused" });
  });
});
