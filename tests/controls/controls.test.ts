import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivenRunsEnded } from "@/server/agent-runs";
import { checkTurn } from "@/server/controls";
import { controlsState, LEASE_SHARE, SYNC_MS } from "@/server/controls/controls-state";
import { loadConfig } from "@/server/core/config";
import { apiKeys, events } from "@/server/db/schema";
import { drainIngestQueue } from "@/server/tracing";
import { anotherInstance } from "../helpers/app-instance";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { spansOf } from "../helpers/run-trace";

let app: TestApp;
let model: ScriptedModelServer;

const INVOKE = "/services/agent/v0/invoke";
const DAY_MS = 24 * 60 * 60 * 1000;

/** gpt-5-mini lists at $0.25 per million input tokens: a step of 1M input tokens costs $0.25. */
const invokeBody = (agent: Record<string, unknown> = {}) => ({
  data: {
    inputs: { messages: [{ role: "user", content: "hello" }] },
    parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [], ...agent } },
  },
});

beforeAll(async () => {
  model = await startScriptedModelServer();
  const defaults = loadConfig({});
  app = await createTestApp({
    providerEnv: {
      ...defaults.providerEnv,
      openai: { key: "sk-openai-test", baseUrl: model.baseUrl },
      anthropic: { key: "sk-ant-test", baseUrl: model.baseUrl },
    },
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
  });
});
afterAll(async () => {
  await app.close();
  await model.close();
});

async function keyIdOf(projectId: string): Promise<string> {
  const [row] = await app.context.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.projectId, projectId));
  return row.id;
}

/** A turn's tokens are counted and its spans queued as it ends, a moment after its answer: wait for that, then ingest. */
async function turnsEnded(): Promise<void> {
  await drivenRunsEnded(app.context.db);
  await drainIngestQueue(app.context);
}

async function create(key: string, path: string, body: unknown) {
  const res = await app.call("POST", `/api/controls/${path}/`, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("model allowlists", () => {
  it("a model outside the project's list is refused with 403 naming model and rule, before anything is sent", async () => {
    const { key } = await app.newProject();
    await create(key, "allowlists", { scope: "project", patterns: ["anthropic/*"] });
    const sent = model.requests.length;
    const res = await app.call("POST", INVOKE, { key, body: invokeBody() });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("model_not_allowed");
    expect(res.body.detail).toContain("openai/gpt-5-mini");
    expect(res.body.detail).toContain("the project's model allowlist (anthropic/*)");
    expect(res.body.model).toBe("openai/gpt-5-mini");
    expect(res.body.rule).toEqual({ owner: "the project's model allowlist", patterns: ["anthropic/*"] });
    expect(model.requests.length).toBe(sent);
  });

  it("a key's list narrows the project's", async () => {
    const { key, projectId } = await app.newProject();
    const keyId = await keyIdOf(projectId);
    await create(key, "allowlists", { scope: "project", patterns: ["openai/*"] });
    model.script({ kind: "reply", text: "hi" });
    expect((await app.call("POST", INVOKE, { key, body: invokeBody() })).status).toBe(200);
    await create(key, "allowlists", { scope: "api_key", target_id: keyId, patterns: ["openai/gpt-5-nano"] });
    const res = await app.call("POST", INVOKE, { key, body: invokeBody() });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain(`the model allowlist of API key ${keyId}`);
  });

  it("the OpenAI door refuses in OpenAI's error shape, naming the model and the rule", async () => {
    const { key } = await app.newProject();
    const created = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "door-agent",
          name: "Door agent",
          data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
        },
      },
    });
    expect(created.status).toBe(200);
    await create(key, "allowlists", { scope: "project", patterns: ["anthropic/*"] });
    const sent = model.requests.length;
    const res = await app.call("POST", "/v1/chat/completions", {
      key: null,
      headers: { authorization: `Bearer ${key}` },
      body: { model: "door-agent", messages: [{ role: "user", content: "hi" }] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("model_not_allowed");
    expect(res.body.error.type).toBe("permission_error");
    expect(res.body.error.message).toContain("openai/gpt-5-mini is not allowed by the project's model allowlist");
    expect(model.requests.length).toBe(sent);
  });

  it("rejects a pattern that is not provider/model, and a second project list", async () => {
    const { key } = await app.newProject();
    const bad = await app.call("POST", "/api/controls/allowlists/", {
      key,
      body: { scope: "project", patterns: ["gpt-5"] },
    });
    expect(bad.status).toBe(422);
    await create(key, "allowlists", { scope: "project", patterns: ["openai/*"] });
    const again = await app.call("POST", "/api/controls/allowlists/", {
      key,
      body: { scope: "project", patterns: ["anthropic/*"] },
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain("already has a model allowlist");
  });
});

describe("rate limits", () => {
  it("over the requests per minute: 429 with Retry-After and the IETF RateLimit fields, naming the key", async () => {
    const { key, projectId } = await app.newProject();
    const keyId = await keyIdOf(projectId);
    await create(key, "rate-limits", { scope: "api_key", requests_per_minute: 2 });
    model.script({ kind: "reply", text: "ok" });
    for (let i = 0; i < 2; i++) expect((await app.call("POST", INVOKE, { key, body: invokeBody() })).status).toBe(200);
    const sent = model.requests.length;
    const res = await app.call("POST", INVOKE, { key, body: invokeBody() });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(res.body.detail).toContain(`API key ${keyId}`);
    expect(res.body.detail).toContain("2 requests per minute");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get("ratelimit-policy")).toBe('"api-key-requests";q=2;w=60');
    expect(res.headers.get("ratelimit")).toBe(`"api-key-requests";r=0;t=${retryAfter}`);
    expect(model.requests.length).toBe(sent);
  });

  it("tokens per minute: a turn's tokens count, and the next turn past the limit is refused", async () => {
    const { key } = await app.newProject();
    await create(key, "rate-limits", { scope: "api_key", tokens_per_minute: 100 });
    model.script({ kind: "reply", text: "ok", usage: { input: 90, output: 20 } });
    expect((await app.call("POST", INVOKE, { key, body: invokeBody() })).status).toBe(200);
    await turnsEnded();
    const res = await app.call("POST", INVOKE, { key, body: invokeBody() });
    expect(res.status).toBe(429);
    expect(res.body.detail).toContain("100 tokens per minute and 110 were used");
    expect(res.headers.get("ratelimit-policy")).toBe('"api-key-tokens";q=100;w=60');
  });

  it("an agent's limit counts its runs whichever key asks", async () => {
    const { key } = await app.newProject();
    const created = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "limited",
          name: "Limited",
          data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
        },
      },
    });
    const agentId = created.body.workflow.id;
    await create(key, "rate-limits", { scope: "agent", target_id: agentId, requests_per_minute: 1 });
    model.script({ kind: "reply", text: "ok" });
    const body = {
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
      references: { workflow: { slug: "limited" } },
    };
    expect((await app.call("POST", INVOKE, { key, body })).status).toBe(200);
    const res = await app.call("POST", INVOKE, { key, body });
    expect(res.status).toBe(429);
    expect(res.body.detail).toContain(`agent ${agentId}`);
    expect(res.headers.get("ratelimit-policy")).toBe('"agent-requests";q=1;w=60');
    // An inline template is another agent: not limited.
    expect((await app.call("POST", INVOKE, { key, body: invokeBody() })).status).toBe(200);
  });

  it("two app instances on one database share one limit", async () => {
    const { key } = await app.newProject();
    await create(key, "rate-limits", { scope: "api_key", requests_per_minute: 3 });
    const second = await anotherInstance(app);
    try {
      model.script({ kind: "reply", text: "ok" });
      const statuses = [];
      for (const instance of [app, second, app, second]) {
        const res = await instance.call("POST", INVOKE, { key, body: invokeBody() });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await second.close();
    }
  });
});

describe("rate limits across instances and on answers", () => {
  const target = [{ provider: "openai", model: "gpt-5-mini" }];
  /** Checks turns on `instance` until one is refused; how many were admitted. */
  async function admitted(instance: { context: TestApp["context"] }, subject: object, max: number): Promise<number> {
    for (let i = 0; i < max; i++) {
      try {
        await checkTurn(instance.context, subject as never, target);
      } catch (error) {
        expect((error as { code?: string }).code).toBe("rate_limited");
        return i;
      }
    }
    return max;
  }

  it("two instances admit exactly the limit together; one refuses at most the other's unused lease early", async () => {
    const { key, projectId } = await app.newProject();
    const limit = 40;
    await create(key, "rate-limits", { scope: "api_key", requests_per_minute: limit });
    const subject = { projectId, apiKeyId: await keyIdOf(projectId) };
    const second = await anotherInstance(app);
    try {
      // The first instance admits one request and keeps the rest of its lease.
      expect(await admitted(app, subject, 1)).toBe(1);
      const lease = app.database.kind === "postgres" ? Math.floor(limit * LEASE_SHARE) : 1;
      const bySecond = await admitted(second, subject, limit + 5);
      expect(bySecond).toBeGreaterThanOrEqual(limit - lease);
      const rest = await admitted(app, subject, limit + 5);
      expect(1 + bySecond + rest).toBe(limit);
    } finally {
      await second.close();
    }
  });

  it("a successful answer carries the RateLimit fields of every limit it counted against", async () => {
    const { key } = await app.newProject();
    await create(key, "rate-limits", { scope: "api_key", requests_per_minute: 5, tokens_per_minute: 1000 });
    const created = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "headed",
          name: "Headed",
          data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
        },
      },
    });
    await create(key, "rate-limits", { scope: "agent", target_id: created.body.workflow.id, requests_per_minute: 10 });
    model.script({ kind: "reply", text: "ok", usage: { input: 90, output: 10 } });
    const first = await app.call("POST", INVOKE, {
      key,
      body: {
        data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
        references: { workflow: { slug: "headed" } },
      },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(
      '"api-key-requests";q=5;w=60, "api-key-tokens";q=1000;w=60, "agent-requests";q=10;w=60',
    );
    expect(first.headers.get("ratelimit")).toMatch(
      /^"api-key-requests";r=4;t=\d+, "api-key-tokens";r=1000;t=\d+, "agent-requests";r=9;t=\d+$/,
    );
    // The OpenAI door too, with the tokens the first turn used, counted as it ended.
    await turnsEnded();
    const door = await app.call("POST", "/v1/chat/completions", {
      key: null,
      headers: { authorization: `Bearer ${key}` },
      body: { model: "headed", messages: [{ role: "user", content: "hi" }] },
    });
    expect(door.status).toBe(200);
    expect(door.headers.get("ratelimit")).toMatch(/"api-key-tokens";r=900;t=\d+/);
    // An answer no limit applies to carries none.
    const unlimited = await app.newProject();
    model.script({ kind: "reply", text: "ok" });
    const plain = await app.call("POST", INVOKE, { key: unlimited.key, body: invokeBody() });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("ratelimit")).toBeNull();
  });
});

describe("controls across instances", () => {
  it("a control set on one instance applies on another one, told by its notification", async () => {
    const { key, projectId } = await app.newProject();
    const second = await anotherInstance(app);
    try {
      const target = [{ provider: "openai", model: "gpt-5-mini" }];
      await checkTurn(second.context, { projectId }, target);
      const rows = controlsState(second.context).rows;
      const dropped = rows.dropped(projectId);
      await create(key, "allowlists", { scope: "project", patterns: ["anthropic/*"] });
      // Still held by the second instance: its notification is on the way (one held only while listening).
      if (rows.get(projectId, app.context.now().getTime())) await dropped;
      await expect(checkTurn(second.context, { projectId }, target)).rejects.toMatchObject({
        code: "model_not_allowed",
      });
    } finally {
      await second.close();
    }
  });

  it("spend counted on one instance refuses turns on another once written (within a sync)", async () => {
    const { key, projectId } = await app.newProject();
    await create(key, "budgets", { name: "shared", scope: "project", window: "day", limit_usd: 0.2 });
    const second = await anotherInstance(app);
    try {
      const target = { provider: "openai", model: "gpt-5-mini" };
      await checkTurn(second.context, { projectId }, [target]);
      const turn = await checkTurn(app.context, { projectId }, [target]);
      expect(await turn.stepEnded({ ...target, usage: { prompt: 1_000_000, completion: 0 } })).toBe(true);
      // The second instance's total ages past SYNC_MS on the app's clock: the next check marks it
      // stale (served meanwhile), and the sync reads it again. (On the embedded database both
      // instances share one tally, which refuses at once.)
      app.advanceClock(SYNC_MS + 1);
      await checkTurn(second.context, { projectId }, [target]).catch(() => undefined);
      await controlsState(second.context).spend.sync();
      await expect(checkTurn(second.context, { projectId }, [target])).rejects.toMatchObject({
        code: "budget_exceeded",
      });
    } finally {
      await second.close();
    }
  });
});

describe("model aliases", () => {
  it("an alias falls through a provider answering 429 to the next entry, and the trace records both attempts", async () => {
    const { key } = await app.newProject();
    await create(key, "aliases", {
      name: "support-default",
      entries: [
        { provider: "openai", model: "gpt-5-mini" },
        { provider: "anthropic", model: "claude-haiku-4-5" },
      ],
    });
    model.respondWith((request) =>
      request.path.includes("/responses") ? { kind: "status", status: 429, message: "slow down" } : undefined,
    );
    model.script({ kind: "reply", text: "Answered by the second." });
    try {
      const res = await app.call("POST", INVOKE, {
        key,
        body: invokeBody({ llm: { model: "support-default" } }),
      });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).toContain("Answered by the second.");
      const traceId = res.headers.get("x-svc-trace-id")!;
      await turnsEnded();
      const said = JSON.stringify((await app.call("GET", `/api/traces/${traceId}`, { key })).body);
      expect(said).toContain("chat claude-haiku-4-5");
      const attempts = JSON.parse(said.match(/"attempts":(\[[^\]]*\])/)![1]);
      expect(attempts.map((a: { provider: string; outcome: string }) => [a.provider, a.outcome])).toEqual([
        ["openai", "status 429"],
        ["anthropic", "answered"],
      ]);
    } finally {
      model.respondWith(undefined);
    }
  });

  it("a 400 from the first entry is the request's fault: no fall-through", async () => {
    const { key } = await app.newProject();
    await create(key, "aliases", {
      name: "strict",
      entries: [
        { provider: "openai", model: "gpt-5-mini" },
        { provider: "anthropic", model: "claude-haiku-4-5" },
      ],
    });
    model.script({ kind: "status", status: 400, message: "bad" });
    const sent = model.requests.length;
    const res = await app.call("POST", INVOKE, { key, body: invokeBody({ llm: { model: "strict" } }) });
    expect(JSON.stringify(res.body)).toContain("status 400");
    expect(model.requests.length).toBe(sent + 1);
  });

  it("each alias entry passes the allowlist, or the turn is refused naming the entry", async () => {
    const { key } = await app.newProject();
    await create(key, "aliases", {
      name: "mixed",
      entries: [
        { provider: "openai", model: "gpt-5-mini" },
        { provider: "anthropic", model: "claude-haiku-4-5" },
      ],
    });
    await create(key, "allowlists", { scope: "project", patterns: ["openai/*"] });
    const res = await app.call("POST", INVOKE, { key, body: invokeBody({ llm: { model: "mixed" } }) });
    expect(res.status).toBe(403);
    expect(res.body.model).toBe("anthropic/claude-haiku-4-5");
  });
});

describe("budgets", () => {
  it("a budget reached mid-turn ends the turn as budget_exceeded; the next is refused with 402 until the window resets", async () => {
    const { key, projectId } = await app.newProject();
    const budget = (
      await create(key, "budgets", {
        name: "daily",
        scope: "project",
        window: "day",
        time_zone: "UTC",
        limit_usd: 0.2,
        warn_percent: 50,
      })
    ).budget;
    expect(budget.spent_usd).toBe(0);
    // Step 1 costs $0.25 and calls a tool: the loop would call the model again; the budget stops it.
    model.script(
      {
        kind: "reply",
        text: "Looking.",
        usage: { input: 1_000_000, output: 0 },
        toolCalls: [{ id: "c1", name: "ls", input: {} }],
      },
      { kind: "reply", text: "never asked" },
    );
    const sent = model.requests.length;
    const res = await app.call("POST", INVOKE, {
      key,
      body: invokeBody({ tools: [{ type: "builtin", name: "ls" }] }),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.outputs.stop_reason).toBe("budget_exceeded");
    expect(model.requests.length).toBe(sent + 1);
    const runId = res.headers.get("x-svc-run-id")!;
    const run = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key });
    expect(run.body.run.stop_reason).toBe("budget_exceeded");
    expect(run.body.run.error ?? null).toBeNull();
    expect(run.body.run.status).not.toBe("failed");
    const traceId = res.headers.get("x-svc-trace-id")!;
    await turnsEnded();
    const trace = await app.call("GET", `/api/traces/${traceId}`, { key });
    expect(trace.status).toBe(200);
    const spans = spansOf<any>(trace.body);
    expect(JSON.stringify(spans)).toContain("budget_exceeded");
    expect(spans.filter((span) => span.status_code === "STATUS_CODE_ERROR")).toEqual([]);

    const refused = await app.call("POST", INVOKE, { key, body: invokeBody() });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe("budget_exceeded");
    expect(refused.body.detail).toContain('Budget "daily"');
    expect(refused.body.budget).toMatchObject({ id: budget.id, name: "daily", limit_usd: 0.2, spent_usd: 0.25 });
    expect(refused.body.budget.resets_at).toBe(budget.resets_at);
    expect(model.requests.length).toBe(sent + 1);

    const listed = await app.call("GET", "/api/controls/budgets/", { key });
    expect(listed.body.budgets[0].spent_usd).toBe(0.25);

    const emitted = await app.context.db
      .select({ type: events.eventType, attributes: events.attributes })
      .from(events)
      .where(and(eq(events.projectId, projectId)));
    const budgetEvents = emitted.filter((e) => e.type.startsWith("budgets."));
    expect(budgetEvents.map((e) => e.type).sort()).toEqual(["budgets.limit.reached", "budgets.warning.reached"]);
    expect(budgetEvents[0].attributes).toMatchObject({ budget: { id: budget.id }, spent_usd: 0.25 });

    app.advanceClock(DAY_MS);
    model.script({ kind: "reply", text: "A new day." });
    const next = await app.call("POST", INVOKE, { key, body: invokeBody() });
    expect(next.status).toBe(200);
    expect(JSON.stringify(next.body)).toContain("A new day.");
  });

  it("the OpenAI door refuses a spent budget with 402", async () => {
    const { key } = await app.newProject();
    await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "spender",
          name: "Spender",
          data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
        },
      },
    });
    await create(key, "budgets", { name: "tiny", scope: "project", window: "month", limit_usd: 0.1 });
    model.script({ kind: "reply", text: "expensive", usage: { input: 1_000_000, output: 0 } });
    const door = (body: unknown) =>
      app.call("POST", "/v1/chat/completions", { key: null, headers: { authorization: `Bearer ${key}` }, body });
    const ask = { model: "spender", messages: [{ role: "user", content: "hi" }] };
    expect((await door(ask)).status).toBe(200);
    await turnsEnded();
    const res = await door(ask);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("budget_exceeded");
    expect(res.body.error.message).toContain('Budget "tiny"');
  });

  it("refuses a target from another project and an unknown time zone", async () => {
    const { key } = await app.newProject();
    const other = await app.newProject();
    const otherKeyId = await keyIdOf(other.projectId);
    const foreign = await app.call("POST", "/api/controls/budgets/", {
      key,
      body: { name: "x", scope: "api_key", target_id: otherKeyId, window: "day", limit_usd: 1 },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe("unknown_target");
    const zone = await app.call("POST", "/api/controls/budgets/", {
      key,
      body: { name: "x", scope: "project", window: "day", time_zone: "Mars/Olympus", limit_usd: 1 },
    });
    expect(zone.status).toBe(422);
    expect(JSON.stringify(zone.body)).toContain("IANA");
  });
});
