/**
 * openai-door: the latency the OpenAI-compatible door adds to an agent run. The same committed
 * agent, the same scripted model reply, called through `POST /v1/chat/completions` and through
 * `POST /services/agent/v0/invoke` in alternating rounds, both behind the production front (the
 * node:http door of server.ts): batch (whole answer) and stream (SSE, to the last byte).
 *
 *   npm run bench -- openai-door [--rounds 6] [--requests 30] [--chars 400] [--chunks 20]
 *
 * Target (issue 25): at most 2 ms added at p50. The end-to-end figure is the median of paired
 * differences (door minus invoke, requests alternating one by one); on a loaded machine it is
 * noise-bound, so the door's own work is also timed in-process (`door_cpu_us_per_call`: parsing
 * the body and projecting one turn's events, against invoke's parse and batch fold).
 */
import { chatCompletionRequestSchema } from "@/server/openai-compat/chat-request";
import { chatToNative } from "@/server/openai-compat/chat-messages";
import { invokeRequestSchema } from "@/server/agent-runs/invoke";
import { foldBatch, OpenAiChatProjection, type NativeEvent } from "@/server/streams";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { serveOverHttp } from "../../tests/helpers/http-server";
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";
import { createTestApp } from "../../tests/helpers/test-app";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round3 = (n: number) => Number(n.toFixed(3));

/** Milliseconds from sending the request to the last byte of the answer. */
async function sample(url: string, init: RequestInit, expected: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200 || !text.includes(expected))
    throw new Error(`bad response ${response.status}: ${text.slice(0, 300)}`);
  return elapsed;
}

type Mode = "batch" | "stream";
type Side = "door" | "invoke";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const rounds = Number(flags.rounds ?? 6);
  const requests = Number(flags.requests ?? 30);
  const chars = Number(flags.chars ?? 400);
  const chunks = Number(flags.chunks ?? 20);
  const loadBefore = loadAverage();

  const model = await startScriptedModelServer();
  const reply = "lorem ipsum ".repeat(Math.ceil(chars / 12)).slice(0, chars);
  model.script({ kind: "reply", text: reply, chunks });
  const app = await createTestApp({ providerEnv: { openai: { key: "sk-bench", baseUrl: model.baseUrl } } });
  const { key } = await app.newProject();
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
  const server = await serveOverHttp(app, "node");
  const messages = [{ role: "user", content: "hi" }];
  const requestFor = (side: Side, mode: Mode): [string, RequestInit] => {
    const stream = mode === "stream";
    if (side === "door") {
      return [
        `${server.origin}/v1/chat/completions`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "bench", messages, stream }),
        },
      ];
    }
    return [
      `${server.origin}/services/agent/v0/invoke`,
      {
        method: "POST",
        headers: {
          authorization: `ApiKey ${key}`,
          "content-type": "application/json",
          accept: stream ? "text/event-stream" : "application/json",
        },
        body: JSON.stringify({ references: { workflow: { slug: "bench" } }, data: { inputs: { messages } } }),
      },
    ];
  };
  // Both answers carry the reply's last words, whichever shape they come in.
  const expected = reply
    .slice(-Math.max(1, Math.floor(chars / chunks) - 1))
    .trim()
    .split(" ")
    .at(-1)!;

  try {
    const samples: Record<Mode, Record<Side, number[]>> = {
      batch: { door: [], invoke: [] },
      stream: { door: [], invoke: [] },
    };
    const roundAdded: Record<Mode, number[]> = { batch: [], stream: [] };
    const paired: Record<Mode, number[]> = { batch: [], stream: [] };
    for (const mode of ["batch", "stream"] as const) {
      for (let i = 0; i < 5; i++)
        for (const side of ["door", "invoke"] as const) await sample(...requestFor(side, mode), expected);
      for (let r = 0; r < rounds; r++) {
        const round: Record<Side, number[]> = { door: [], invoke: [] };
        // Requests alternate one by one (the order flips each time), so load drift hits both sides.
        for (let i = 0; i < requests; i++) {
          const order = i % 2 === 0 ? (["door", "invoke"] as const) : (["invoke", "door"] as const);
          for (const side of order) round[side].push(await sample(...requestFor(side, mode), expected));
          paired[mode].push(round.door.at(-1)! - round.invoke.at(-1)!);
        }
        samples[mode].door.push(...round.door);
        samples[mode].invoke.push(...round.invoke);
        roundAdded[mode].push(round3(percentile(round.door, 50) - percentile(round.invoke, 50)));
        log(`${mode} round ${r + 1}/${rounds}: added p50 ${roundAdded[mode].at(-1)} ms`);
      }
    }
    const cpu = doorCpu(reply, chunks);
    const summary = (list: number[]) => ({ p50: round3(percentile(list, 50)), p95: round3(percentile(list, 95)) });
    const added = { batch: round3(percentile(paired.batch, 50)), stream: round3(percentile(paired.stream, 50)) };
    return {
      benchmark: "openai-door",
      latency_ms: {
        batch: { door: summary(samples.batch.door), invoke: summary(samples.batch.invoke) },
        stream: { door: summary(samples.stream.door), invoke: summary(samples.stream.invoke) },
      },
      added_ms_median_of_pairs: added,
      added_p50_ms_per_round: roundAdded,
      door_cpu_us_per_call: cpu,
      targets: { added_p50_ms_max: 2, met: added.batch <= 2 && added.stream <= 2 },
      requests_per_round: requests,
      text_chars: chars,
      model_chunks: chunks,
      server: "both through the production node:http front (server.ts), same agent, same scripted model",
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

/** Microseconds per call of the door's own work and of invoke's, on one turn's native events. */
function doorCpu(reply: string, chunks: number): Record<string, number> {
  const size = Math.max(1, Math.ceil(reply.length / chunks));
  const events: NativeEvent[] = [{ type: "message_start", id: "msg-0" }];
  for (let i = 0; i < reply.length; i += size)
    events.push({ type: "message_delta", id: "msg-0", delta: reply.slice(i, i + size) });
  events.push(
    { type: "message_end", id: "msg-0" },
    { type: "usage", input: 10, output: 20, total: 30 },
    { type: "done", stopReason: "stop", traceId: "0".repeat(32) },
  );
  const messages = [{ role: "user", content: "hi" }];
  const doorBody = { model: "bench", messages };
  const invokeBody = { references: { workflow: { slug: "bench" } }, data: { inputs: { messages } } };
  const time = (work: () => void) => {
    for (let i = 0; i < 200; i++) work();
    const iterations = 2000;
    const started = performance.now();
    for (let i = 0; i < iterations; i++) work();
    return round3(((performance.now() - started) * 1000) / iterations);
  };
  const door = time(() => {
    const body = chatCompletionRequestSchema.parse(doorBody);
    chatToNative(body.messages);
    const projection = new OpenAiChatProjection({
      id: "chatcmpl-x",
      model: body.model,
      created: 0,
      includeUsage: false,
    });
    for (const event of events) projection.push(event);
    JSON.stringify(projection.completion());
  });
  const invoke = time(() => {
    invokeRequestSchema.parse(invokeBody);
    JSON.stringify(foldBatch(events));
  });
  return { door, invoke, added: round3(door - invoke) };
}
