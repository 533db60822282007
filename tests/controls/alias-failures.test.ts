import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { runsRecorded } from "../helpers/after-runs";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { spansOf } from "../helpers/run-trace";
import { closedPort } from "../helpers/closed-port";

/**
 * A model alias whose entries fail differently: the turn's error says what each entry did and
 * leads with the failure that ended the call, worded with that entry's own connection; the
 * trace's root span names the entry that answered (or whose failure ended the turn).
 */
let app: TestApp;
let model: ScriptedModelServer;
let refusingPort: number;

const INVOKE = "/services/agent/v0/invoke";
const GROQ = { provider: "groq", model: "llama-3.3-70b-versatile" };
const OPENAI = { provider: "openai", model: "gpt-5-mini" };
const ANTHROPIC = { provider: "anthropic", model: "claude-haiku-4-5" };

beforeAll(async () => {
  model = await startScriptedModelServer();
  refusingPort = await closedPort();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: {
      ...defaults.providerEnv,
      openai: { key: "sk-openai-test", baseUrl: model.baseUrl },
      anthropic: { key: "sk-ant-test", baseUrl: model.baseUrl },
      groq: { key: "gsk-test", baseUrl: `http://127.0.0.1:${refusingPort}/v1` },
    },
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
  });
});
afterAll(async () => {
  await app.close();
  await model.close();
});

/** OpenAI (Responses) and Anthropic (messages) answer with these statuses; a null status answers. */
function statuses(byProvider: { openai?: number | null; anthropic?: number | null }) {
  model.respondWith((request) => {
    const status = request.path.includes("/responses") ? byProvider.openai : byProvider.anthropic;
    return status ? { kind: "status", status, message: "scripted failure" } : undefined;
  });
}

/** Runs a turn through a new alias of these entries; the run's error and its trace's spans. */
async function turnThrough(entries: Array<{ provider: string; model: string }>) {
  const { key } = await app.newProject();
  const created = await app.call("POST", "/api/controls/aliases/", { key, body: { name: "fallbacks", entries } });
  expect(created.status).toBe(201);
  const res = await app.call("POST", INVOKE, {
    key,
    body: {
      data: {
        inputs: { messages: [{ role: "user", content: "hello" }] },
        parameters: { agent: { llm: { model: "fallbacks" }, tools: [] } },
      },
    },
  });
  expect(res.status).toBe(200);
  await runsRecorded(app.context);
  const run = await app.call("GET", `/services/agent/v0/runs/${res.headers.get("x-svc-run-id")}`, { key });
  const trace = await app.call("GET", `/api/traces/${res.headers.get("x-svc-trace-id")}`, { key });
  const spans = spansOf<any>(trace.body);
  return {
    body: res.body,
    error: run.body.run.error as string | undefined,
    root: spans.find((span) => span.span_name.startsWith("invoke_agent")),
    chats: spans.filter((span) => span.span_name.startsWith("chat ")),
  };
}

describe("an alias whose every entry fails", () => {
  it("names what each entry did, and leads with the last entry's failure in its own words (refused, 503, then 429)", async () => {
    statuses({ openai: 503, anthropic: 429 });
    try {
      const turn = await turnThrough([GROQ, OPENAI, ANTHROPIC]);
      expect(turn.error).toContain(
        'Every entry of model alias "fallbacks" failed (groq/llama-3.3-70b-versatile: connection refused; openai/gpt-5-mini: status 503; anthropic/claude-haiku-4-5: status 429).',
      );
      expect(turn.error).toMatch(/The anthropic provider is rate limiting .*\(429\); retry later\.$/);
      expect(JSON.stringify(turn.body)).toContain("The anthropic provider is rate limiting");
      // The failed model call and the root name the entry whose failure ended the turn.
      expect(turn.root.status_code).toBe("STATUS_CODE_ERROR");
      expect(turn.root.attributes.gen_ai).toMatchObject({
        provider: { name: "anthropic" },
        request: { model: "claude-haiku-4-5" },
      });
      expect(turn.chats.map((span) => span.span_name)).toEqual(["chat claude-haiku-4-5"]);
    } finally {
      model.respondWith(undefined);
    }
  });

  it("in the other order the refused entry is last: the error leads with the refusal, naming that entry's address", async () => {
    statuses({ openai: 503, anthropic: 429 });
    try {
      const turn = await turnThrough([ANTHROPIC, OPENAI, GROQ]);
      expect(turn.error).toContain(
        "(anthropic/claude-haiku-4-5: status 429; openai/gpt-5-mini: status 503; groq/llama-3.3-70b-versatile: connection refused).",
      );
      expect(turn.error).toContain(`127.0.0.1:${refusingPort} refused the connection`);
      expect(turn.error).not.toContain("rate limiting");
      expect(turn.root.attributes.gen_ai).toMatchObject({
        provider: { name: "groq" },
        request: { model: "llama-3.3-70b-versatile" },
      });
    } finally {
      model.respondWith(undefined);
    }
  });

  it("an entry whose failure does not move on (400) ends the call: the error is that entry's, after the ones tried before it", async () => {
    statuses({ openai: 429, anthropic: 400 });
    try {
      const turn = await turnThrough([OPENAI, ANTHROPIC, GROQ]);
      expect(turn.error).toContain(
        'Model alias "fallbacks" tried 2 of its 3 entries (openai/gpt-5-mini: status 429; anthropic/claude-haiku-4-5: status 400).',
      );
      expect(turn.error).toContain('failed with status 400 for model "claude-haiku-4-5"');
    } finally {
      model.respondWith(undefined);
    }
  });
});

describe("an alias turn that an entry answers", () => {
  it("the root span records the entry that answered, not the first entry", async () => {
    statuses({ openai: 429, anthropic: null });
    model.script({ kind: "reply", text: "Answered by the second." });
    try {
      const turn = await turnThrough([OPENAI, ANTHROPIC]);
      expect(turn.error ?? null).toBeNull();
      expect(turn.root.status_code).toBe("STATUS_CODE_OK");
      expect(turn.root.attributes.gen_ai).toMatchObject({
        provider: { name: "anthropic" },
        request: { model: "claude-haiku-4-5" },
      });
      expect(turn.chats.map((span) => span.span_name)).toEqual(["chat claude-haiku-4-5"]);
    } finally {
      model.respondWith(undefined);
    }
  });
});
