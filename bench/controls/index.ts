/**
 * controls: what the spend and traffic controls add to a model call. Two projects run the same
 * committed agent against the same scripted model: one with no controls, one with a budget, a
 * rate limit (requests and tokens per minute, per API key) and a model allowlist, none of them
 * reached. `POST /services/agent/v0/invoke` and `POST /v1/chat/completions` (batch) are called
 * for both, alternating request by request (the order flips each time), behind the production
 * node:http front.
 *
 *   npm run bench -- controls [--rounds 6] [--requests 30]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- controls
 *
 * Targets (issue 42): at most 0.5 ms added per request at p50, throughput at least 0.95 of the
 * uncontrolled project's. The added time is the median of paired differences; the throughput
 * ratio is the uncontrolled side's total time over the controlled side's. `check_us_per_call`
 * times the check itself in-process (`checkTurn` plus counting one step), without HTTP noise, in
 * wall time and in the process's CPU time (`_cpu`), which a loaded machine disturbs far less.
 * `added_cpu_us_median_of_pairs` is the same for each request's CPU (the server, the client and
 * the workers run in this process, so background work counts to the request it overlaps).
 */
import { checkTurn } from "@/server/controls";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { serveOverHttp } from "../../tests/helpers/http-server";
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../../tests/helpers/test-app";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round3 = (n: number) => Number(n.toFixed(3));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** One request's wall time (ms) and the process's CPU time meanwhile (µs): client, server and workers share it. */
async function sample(url: string, init: RequestInit): Promise<{ ms: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (response.status !== 200 || !text.includes("benchmark reply"))
    throw new Error(`bad response ${response.status}: ${text.slice(0, 300)}`);
  return { ms: elapsed, cpuUs: used.user + used.system };
}

type Door = "invoke" | "chat_completions";
type Side = "bare" | "controlled";

async function project(app: TestApp, controlled: boolean) {
  const { key, projectId } = await app.newProject();
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: {
      workflow: {
        slug: "bench",
        name: "Bench",
        data: { parameters: { agent: { llm: { model: "openai/gpt-5-mini" }, tools: [] } } },
      },
    },
  });
  if (created.status !== 200) throw new Error(`creating the agent failed: ${JSON.stringify(created.body)}`);
  if (controlled) {
    for (const [path, body] of [
      ["budgets", { name: "bench", scope: "project", window: "month", limit_usd: 1_000_000 }],
      ["rate-limits", { scope: "api_key", requests_per_minute: 1_000_000, tokens_per_minute: 1_000_000_000 }],
      ["allowlists", { scope: "project", patterns: ["openai/*"] }],
    ] as const) {
      const res = await app.call("POST", `/api/controls/${path}/`, { key, body });
      if (res.status !== 201) throw new Error(`setting ${path} failed: ${JSON.stringify(res.body)}`);
    }
  }
  return { key, projectId, agentId: created.body.workflow.id as string };
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const rounds = Number(flags.rounds ?? 6);
  const requests = Number(flags.requests ?? 30);
  const loadBefore = loadAverage();

  const model = await startScriptedModelServer();
  model.script({ kind: "reply", text: "benchmark reply", usage: { input: 100, output: 20 } });
  const app = await createTestApp({ providerEnv: { openai: { key: "sk-bench", baseUrl: model.baseUrl } } });
  const projects = { bare: await project(app, false), controlled: await project(app, true) };
  const server = await serveOverHttp(app, "node");
  const messages = [{ role: "user", content: "hi" }];
  const requestFor = (door: Door, side: Side): [string, RequestInit] => {
    const { key } = projects[side];
    if (door === "chat_completions")
      return [
        `${server.origin}/v1/chat/completions`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "bench", messages }),
        },
      ];
    return [
      `${server.origin}/services/agent/v0/invoke`,
      {
        method: "POST",
        headers: { authorization: `ApiKey ${key}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ references: { workflow: { slug: "bench" } }, data: { inputs: { messages } } }),
      },
    ];
  };

  try {
    const doors: Door[] = ["invoke", "chat_completions"];
    const results: Record<string, unknown> = {};
    for (const door of doors) {
      for (let i = 0; i < 5; i++)
        for (const side of ["bare", "controlled"] as const) await sample(...requestFor(door, side));
      const all: Record<Side, number[]> = { bare: [], controlled: [] };
      const cpu: Record<Side, number[]> = { bare: [], controlled: [] };
      const paired: number[] = [];
      const pairedCpu: number[] = [];
      const roundAdded: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const round: Record<Side, number[]> = { bare: [], controlled: [] };
        for (let i = 0; i < requests; i++) {
          const order = (i + r) % 2 === 0 ? (["bare", "controlled"] as const) : (["controlled", "bare"] as const);
          for (const side of order) {
            const { ms, cpuUs } = await sample(...requestFor(door, side));
            round[side].push(ms);
            cpu[side].push(cpuUs);
          }
          paired.push(round.controlled.at(-1)! - round.bare.at(-1)!);
          pairedCpu.push(cpu.controlled.at(-1)! - cpu.bare.at(-1)!);
        }
        all.bare.push(...round.bare);
        all.controlled.push(...round.controlled);
        roundAdded.push(round3(percentile(round.controlled, 50) - percentile(round.bare, 50)));
        log(`${door} round ${r + 1}/${rounds}: added p50 ${roundAdded.at(-1)} ms`);
      }
      results[door] = {
        p50_ms: { bare: round3(percentile(all.bare, 50)), controlled: round3(percentile(all.controlled, 50)) },
        p95_ms: { bare: round3(percentile(all.bare, 95)), controlled: round3(percentile(all.controlled, 95)) },
        added_ms_median_of_pairs: round3(percentile(paired, 50)),
        added_p50_ms_per_round: roundAdded,
        throughput_ratio: round3(sum(all.bare) / sum(all.controlled)),
        cpu_us_per_request: {
          bare: round3(percentile(cpu.bare, 50)),
          controlled: round3(percentile(cpu.controlled, 50)),
        },
        added_cpu_us_median_of_pairs: round3(percentile(pairedCpu, 50)),
        cpu_ratio: round3(sum(cpu.bare) / sum(cpu.controlled)),
      };
    }
    const check = await checkCost(app, projects.controlled);
    const met = doors.every((door) => {
      const r = results[door] as { added_ms_median_of_pairs: number; throughput_ratio: number };
      return r.added_ms_median_of_pairs <= 0.5 && r.throughput_ratio >= 0.95;
    });
    return {
      benchmark: "controls",
      ...results,
      check_us_per_call: check,
      targets: { added_p50_ms_max: 0.5, throughput_ratio_min: 0.95, met },
      requests_per_round: requests,
      rounds,
      controls: "a project budget, a per-key limit of requests and tokens per minute, a project model allowlist",
      server: "the production node:http front (server.ts), same agent, same scripted model",
      database: app.database.kind,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    await server.close();
    await app.close();
    await model.close();
  }
}

/** The check and one step's count, in process: microseconds per turn with every control set. */
async function checkCost(app: TestApp, subject: { projectId: string; agentId: string }) {
  const target = { provider: "openai", model: "gpt-5-mini" };
  const calls = 300;
  const time = async (count: boolean) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      const controls = await checkTurn(app.context, { ...subject, apiKeyId: "00000000-0000-7000-8000-000000000000" }, [
        target,
      ]);
      if (count) await controls.stepEnded({ ...target, usage: { prompt: 100, completion: 20 } });
    }
    const used = process.cpuUsage(cpu);
    return {
      wall: round3(((performance.now() - started) / calls) * 1000),
      cpu: round3((used.user + used.system) / calls),
    };
  };
  await time(true);
  const [check, counted] = [await time(false), await time(true)];
  return {
    check: check.wall,
    check_and_count_step: counted.wall,
    check_cpu: check.cpu,
    check_and_count_step_cpu: counted.cpu,
  };
}
