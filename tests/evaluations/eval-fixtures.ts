import { expect } from "vitest";
import { loadConfig, type Config } from "@/server/core/config";
import { startEvaluationWorker, type EvaluationWorkerOptions } from "@/server/evaluations";
import type { RecordedRequest, Script, ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

/** A test app whose OpenAI key (the operator's) reaches the scripted model server. */
export async function evaluationApp(model: ScriptedModelServer, overrides: Partial<Config> = {}): Promise<TestApp> {
  const defaults = loadConfig({});
  return createTestApp({
    agentRuns: { ...defaults.agentRuns, maxRetries: 0 },
    providerEnv: { ...defaults.providerEnv, openai: { key: "sk-eval-operator", baseUrl: model.baseUrl } },
    ...overrides,
  });
}

/**
 * The worker renews its leases every 500 ms; a loaded host can hold that loop back for seconds, and
 * a lease that runs out meanwhile re-runs its cell with one more attempt counted (seen at load
 * average 30: runs of 20 cells still unfinished after a minute, the retry test's attempt count off).
 * So the tests' leases are 20 s; the test of lease expiry (worker-crash) sets its own.
 */
export function startWorker(t: TestApp, options: EvaluationWorkerOptions = {}) {
  const worker = startEvaluationWorker(t.context, { idleMs: 50, leaseMs: 20_000, metricsIntervalMs: 0, ...options });
  const running = workersOf(t);
  running.add(worker);
  return {
    ...worker,
    async stop() {
      running.delete(worker);
      await worker.stop();
    },
  };
}

type EvaluationWorker = ReturnType<typeof startEvaluationWorker>;
/** The workers `startWorker` started for each app and not stopped: the ones `settled` awaits. */
const workers = new WeakMap<TestApp, Set<EvaluationWorker>>();
const workersOf = (t: TestApp) => {
  let running = workers.get(t);
  if (!running) workers.set(t, (running = new Set()));
  return running;
};

/** Resolves after a pass of each of the app's running workers that found nothing due, none in flight, nothing settling. */
export async function workersIdle(t: TestApp, ms = 60_000): Promise<void> {
  const running = [...workersOf(t)];
  if (!running.length) throw new Error("workersIdle() needs the app's evaluation worker: startWorker(t) first");
  await within(ms, "the evaluation workers to be idle", Promise.all(running.map((worker) => worker.idle())));
}

/**
 * The evaluation once the app's workers (`startWorker`) have done the work due now and `done`
 * holds. Awaits every running worker's `idle()` (a pass that found no cell due, none in flight,
 * no scenario settling) rather than polling on a timer; a run whose state is not reached then
 * still has work falling due later (a retry's backoff, a lease or a tick running out), so each
 * worker's own next pass (its idle wait or a notification) is awaited again. Bounded by `ms`: a stall fails naming the run.
 */
export async function settled(
  t: TestApp,
  key: string,
  id: string,
  done: (evaluation: any) => boolean = finished,
  { ms = 60_000 }: { ms?: number } = {},
): Promise<any> {
  const running = workersOf(t);
  if (!running.size) throw new Error("settled() needs the app's evaluation worker: startWorker(t) first");
  const read = async () => (await t.call("GET", `/api/simple/evaluations/${id}`, { key })).body.evaluation;
  let last: any;
  let gaveUp = false;
  try {
    return await within(
      ms,
      `evaluation ${id} to reach the expected state`,
      (async () => {
        for (let round = 0; !gaveUp; round++) {
          // The first round runs a pass now; later ones wait for each worker's own next pass.
          await Promise.all([...running].map((worker) => worker.idle(round === 0)));
          last = await read();
          if (done(last)) return last;
        }
      })(),
      async () => `last read: ${JSON.stringify(last)}`,
    );
  } finally {
    gaveUp = true;
  }
}

/** A node code tool the agent calls: adds two numbers. */
export const ADD_TOOL = {
  type: "code",
  name: "add",
  description: "Adds two numbers",
  runtime: "node",
  script: "function main({ a, b }) { return { sum: a + b }; }",
  input_schema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
};

/** 20 additions; `correct_answer` is the sum. */
/** A prompt application's data: "Add {{a}} and {{b}}." to the (scripted) model, the rows' question. */
export const ADDER_PROMPT = {
  parameters: {
    prompt: {
      messages: [{ role: "user", content: "Add {{a}} and {{b}}." }],
      llm_config: { model: "openai/gpt-5-mini" },
    },
  },
};

/** The adder prompt application and an exact-match evaluator, created in a project: their revision ids. */
export async function adderAndExactMatch(t: TestApp, key: string): Promise<{ prompt: string; exact: string }> {
  const prompt = (await createEntity(t, key, "applications", "application", { slug: "adder", data: ADDER_PROMPT }))
    .revision_id;
  const exact = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
    })
  ).revision_id;
  return { prompt, exact };
}

export const ADDITIONS = Array.from({ length: 20 }, (_, i) => ({
  a: i,
  b: i + 1,
  question: `What is ${i} + ${i + 1}?`,
  correct_answer: String(2 * i + 1),
}));

/** Every text the request carries, whatever the dialect (chat completions or Responses). */
export function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages ?? request.body?.input ?? "");
}

/**
 * The model of these tests: adds the last two numbers of the user's question (wrong when `wrong`
 * says so); an agent request with tools first calls `add`, then answers with the tool's sum.
 */
export function arithmeticModel(wrong: (a: number) => boolean = () => false) {
  return (request: RecordedRequest): Script => {
    const text = requestText(request);
    const toolResult = /"sum\\?":(\d+)/.exec(text);
    if (toolResult) return { kind: "reply", text: toolResult[1], usage: { input: 30, output: 2 } };
    const numbers = [...text.matchAll(/(\d+) (?:\+|and) (\d+)/g)].at(-1);
    const a = Number(numbers?.[1] ?? 0);
    const b = Number(numbers?.[2] ?? 0);
    if (request.body?.tools?.length)
      return {
        kind: "reply",
        toolCalls: [{ id: `call_${a}_${b}`, name: "add", input: { a, b } }],
        usage: { input: 20, output: 8 },
      };
    return { kind: "reply", text: String(wrong(a) ? a + b + 100 : a + b), usage: { input: 12, output: 3 } };
  };
}

export async function createEntity(
  t: TestApp,
  key: string,
  domain: string,
  one: string,
  body: Record<string, unknown>,
): Promise<{ id: string; revision_id: string; slug: string }> {
  const res = await t.call("POST", `/api/simple/${domain}/`, { key, body: { [one]: body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body[one];
}

/**
 * The evaluation once it has ended (`finished`), for a worker that is never idle meanwhile (another
 * run keeps it busy), read every 100 ms, bounded by `ms`. Not on a notification: a run's end
 * writes its event (evaluations.runs.finished or .failed) already fanned out when no webhook takes
 * it, and the outbox then notifies nobody (server/events/emit.ts), so the events channel says
 * nothing of a run in a project without webhooks.
 */
export async function ended(t: TestApp, key: string, id: string, ms = 60_000): Promise<any> {
  const read = async () => (await t.call("GET", `/api/simple/evaluations/${id}`, { key })).body.evaluation;
  let last: any;
  let gaveUp = false;
  try {
    return await within(
      ms,
      `evaluation ${id} to end`,
      (async () => {
        while (!gaveUp) {
          last = await read();
          if (finished(last)) return last;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })(),
      async () => `last read: ${JSON.stringify(last)}`,
    );
  } finally {
    gaveUp = true;
  }
}

export const finished = (e: any) => ["success", "errors", "failure"].includes(e?.data?.status);
