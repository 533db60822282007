import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMatches } from "@/server/agent-runs/permissions/decide-permission";
import { inputSchemaValidator } from "@/server/agent-runs/tools/code/input-schema-validator";
import type { NativeEvent } from "@/server/streams";
import { invokeOver } from "../helpers/invoke-client";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";

// Item 1 of the hardening issue: no user pattern or glob runs on a backtracking engine. Each case
// runs the worst known input for its class through a real run, then evaluates a worse one through
// the same mechanism while /api/health is asked on the same process: the evaluation takes under
// 100 ms of CPU, and health answers meanwhile.
let fixture: RunFixture;
let server: RunFixture["live"];
let model: RunFixture["model"];
let key: string;

beforeAll(async () => {
  fixture = await createRunFixture({}, { providerKey: "sk-x", door: "http" });
  ({ live: server, model, key } = fixture);
});
afterAll(() => fixture.close());

/**
 * What evaluating costs while a health request sent just before waits on this process's thread
 * (where the server runs too): the evaluation's own CPU time, which other processes' load does not
 * stretch, and the health answer's wall-clock latency. A backtracking engine would hold both for
 * seconds to hours; a linear one stays within milliseconds of CPU.
 */
async function healthLatencyDuring<T>(evaluate: () => T): Promise<{ result: T; cpuMs: number; latency: number }> {
  const started = performance.now();
  const health = fetch(`${server.origin}/api/health`).then((r) => r.text());
  await new Promise((r) => setImmediate(r));
  const cpu = process.cpuUsage();
  const result = evaluate();
  const used = process.cpuUsage(cpu);
  await health;
  return { result, cpuMs: (used.user + used.system) / 1000, latency: performance.now() - started };
}

/**
 * The 100 ms budget is the evaluation's CPU time; the health answer's wall time also carries the
 * round trip and whatever else the machine runs (a loaded CI host), so it gets a second.
 */
const CPU_BUDGET_MS = 100;
const HEALTH_WALL_BUDGET_MS = 1_000;

const agent = (tools: unknown[], permissions: Record<string, unknown> = {}) => ({
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools,
  runner: { permissions: { default: "allow" } },
  harness: { permissions },
});
const invoke = (agentTemplate: unknown, session: string) =>
  invokeOver(server.origin, key, "sse", "native", {
    session_id: session,
    data: { inputs: { messages: [{ role: "user", content: "go" }] }, parameters: { agent: agentTemplate } },
  });
const results = (events: NativeEvent[]) =>
  Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.id, { output: e.output, isError: e.isError }]),
  );

const ECHO = {
  type: "code",
  name: "echo",
  runtime: "node",
  script: "function main({ s }) { return s.length; }",
  input_schema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } }, required: ["s"] },
};

describe("hostile patterns", () => {
  // The first run of a process loads the harness, QuickJS and the sandbox: not what is measured.
  beforeAll(async () => {
    model.script(
      {
        kind: "reply",
        text: "Warming.",
        toolCalls: [
          { id: "w1", name: "echo", input: { s: "a" } },
          { id: "w2", name: "bash", input: { command: "echo a" } },
        ],
      },
      { kind: "reply", text: "Done." },
    );
    expect(
      (await invoke(agent([ECHO, { type: "builtin", name: "bash" }], { deny: ["Bash(x*)"] }), "warm")).status,
    ).toBe(200);
  }, 60_000);

  it("a code tool's input_schema pattern ^(a+)+$ is refused in linear time: in a run, and while health answers", async () => {
    const evil = `${"a".repeat(5000)}!`;
    model.script(
      {
        kind: "reply",
        text: "Calling.",
        toolCalls: [
          { id: "c_evil", name: "echo", input: { s: evil } },
          { id: "c_fine", name: "echo", input: { s: "aaa" } },
        ],
      },
      { kind: "reply", text: "Done." },
    );
    const result = await invoke(agent([ECHO]), "pattern");
    expect(result.status).toBe(200);
    const out = results(result.events!);
    expect(out.c_evil.isError).toBe(true);
    expect(String(out.c_evil.output)).toContain('must match pattern "^(a+)+$"');
    expect(out.c_fine).toEqual({ output: 3, isError: false });

    const validate = inputSchemaValidator("any-project", ECHO.input_schema);
    const {
      result: valid,
      cpuMs,
      latency,
    } = await healthLatencyDuring(() => validate({ s: `${"a".repeat(10_000)}!` }));
    expect(valid).toBe(false);
    expect(cpuMs).toBeLessThan(CPU_BUDGET_MS);
    expect(latency).toBeLessThan(HEALTH_WALL_BUDGET_MS);
  }, 60_000);

  it("a permission glob Bash(*a*a*...*b) against a long command is decided in linear time: in a run, and while health answers", async () => {
    const rule = `Bash(${"*a".repeat(30)}*b)`;
    model.script(
      {
        kind: "reply",
        text: "Running.",
        toolCalls: [{ id: "c_long", name: "bash", input: { command: `echo ${"a".repeat(20_000)}` } }],
      },
      { kind: "reply", text: "Done." },
    );
    const result = await invoke(agent([{ type: "builtin", name: "bash" }], { deny: [rule] }), "glob");
    expect(result.status).toBe(200);
    // The rule does not match (no b), so the default allows the call and it runs.
    expect(results(result.events!).c_long.isError).toBe(false);

    const command = `echo ${"a".repeat(10_000)}`;
    const {
      result: matched,
      cpuMs,
      latency,
    } = await healthLatencyDuring(() => ruleMatches(rule, { toolName: "bash", builtin: true, input: { command } }));
    expect(matched).toBe(false);
    expect(cpuMs).toBeLessThan(CPU_BUDGET_MS);
    expect(latency).toBeLessThan(HEALTH_WALL_BUDGET_MS);
  }, 60_000);

  it("a trace filter `matches` refuses a backreference (which PostgreSQL would backtrack on) with a 400", async () => {
    const res = await fetch(`${server.origin}/api/tracing/spans/query`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        filtering: { conditions: [{ field: "span_name", operator: "matches", value: "^(a+)+\\1$" }] },
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain("RE2 syntax");
  });

  it("an evaluator's regex parameter must be a linear-time (RE2) pattern", async () => {
    const res = await fetch(`${server.origin}/api/evaluators/`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        evaluator: {
          slug: "re",
          name: "re",
          data: {
            uri: "svc:builtin:auto_regex_test:v0",
            parameters: { regex_pattern: "(a)\\1", regex_should_match: true },
          },
        },
      }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(await res.json())).toContain("RE2");
  });
});
