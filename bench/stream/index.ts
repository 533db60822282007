/**
 * stream: first-byte latency and UI parts/s of our `ui_sdk` SSE from `/services/agent/v0/invoke`
 * against a bare route returning `streamText(...).toUIMessageStreamResponse()` on the same
 * scripted model, in alternating rounds: ours through the production front (the node:http door of
 * server.ts), the bare route behind a plain node:http server.
 *
 *   npm run bench -- stream [--rounds 6] [--requests 20] [--chars 4000] [--chunks 400]
 *
 * Targets: at most 5 ms added to the p50 first byte, at least 90% of the bare parts/s.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { serveOnLoopback, serveOverHttp, type RunningServer } from "../../tests/helpers/http-server";
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";
import { createTestApp } from "../../tests/helpers/test-app";

interface Sample {
  firstByteMs: number;
  parts: number;
  partsPerSec: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round3 = (n: number) => Number(n.toFixed(3));

async function sample(url: string, init: RequestInit): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(url, init);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstByteMs = -1;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = performance.now() - started;
    text += decoder.decode(value, { stream: true });
  }
  const elapsed = (performance.now() - started) / 1000;
  const parts = text.split("\n").filter((line) => line.startsWith("data: ") && line !== "data: [DONE]").length;
  if (response.status !== 200 || parts < 3) throw new Error(`bad response ${response.status}: ${text.slice(0, 200)}`);
  return { firstByteMs, parts, partsPerSec: parts / elapsed };
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const rounds = Number(flags.rounds ?? 6);
  const requests = Number(flags.requests ?? 20);
  const chars = Number(flags.chars ?? 4000);
  const chunks = Number(flags.chunks ?? 400);
  const loadBefore = loadAverage();

  const model = await startScriptedModelServer();
  model.script({ kind: "reply", text: "lorem ipsum ".repeat(Math.ceil(chars / 12)).slice(0, chars), chunks });
  const app = await createTestApp({ providerEnv: { openai: { key: "sk-bench", baseUrl: model.baseUrl } } });
  const { key } = await app.newProject();
  const provider = createOpenAI({ apiKey: "sk-bench", baseURL: model.baseUrl });
  const bare = async (request: Request) => {
    const body = (await request.json()) as { prompt: string };
    return streamText({
      model: provider.responses("gpt-5-mini"),
      prompt: body.prompt,
      abortSignal: request.signal,
    }).toUIMessageStreamResponse();
  };
  // Ours through the production front (server.ts's node:http door); the bare route behind a plain
  // node:http server that turns the request into a web Request, as any fetch-style host would.
  const servers: RunningServer[] = [await serveOverHttp(app, "node"), await serveOnLoopback(bare)];
  const [ours, floor] = servers;
  const oursInit: RequestInit = {
    method: "POST",
    headers: {
      authorization: `ApiKey ${key}`,
      "content-type": "application/json",
      accept: "text/event-stream",
      "x-svc-messages-format": "ui_sdk",
    },
    body: JSON.stringify({
      data: {
        inputs: { messages: [{ role: "user", content: "hi" }] },
        parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } },
      },
    }),
  };
  const bareInit: RequestInit = {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt: "hi" }),
  };
  const oursUrl = `${ours.origin}/services/agent/v0/invoke`;
  const bareUrl = `${floor.origin}/`;

  try {
    for (let i = 0; i < 5; i++) {
      await sample(oursUrl, oursInit);
      await sample(bareUrl, bareInit);
    }
    const results = { ours: [] as Sample[], bare: [] as Sample[] };
    const roundRatios: Array<{ first_byte_added_ms: number; parts_per_sec_ratio: number }> = [];
    for (let r = 0; r < rounds; r++) {
      const round = { ours: [] as Sample[], bare: [] as Sample[] };
      // Alternate which side goes first so drift cancels.
      const order = r % 2 === 0 ? (["ours", "bare"] as const) : (["bare", "ours"] as const);
      for (const side of order) {
        for (let i = 0; i < requests; i++)
          round[side].push(await sample(side === "ours" ? oursUrl : bareUrl, side === "ours" ? oursInit : bareInit));
      }
      results.ours.push(...round.ours);
      results.bare.push(...round.bare);
      const p50 = (list: Sample[], f: (s: Sample) => number) => percentile(list.map(f), 50);
      roundRatios.push({
        first_byte_added_ms: round3(p50(round.ours, (s) => s.firstByteMs) - p50(round.bare, (s) => s.firstByteMs)),
        parts_per_sec_ratio: round3(p50(round.ours, (s) => s.partsPerSec) / p50(round.bare, (s) => s.partsPerSec)),
      });
      log(`round ${r + 1}/${rounds}: ${JSON.stringify(roundRatios.at(-1))}`);
    }
    const summary = (list: Sample[]) => ({
      first_byte_ms: {
        p50: round3(
          percentile(
            list.map((s) => s.firstByteMs),
            50,
          ),
        ),
        p95: round3(
          percentile(
            list.map((s) => s.firstByteMs),
            95,
          ),
        ),
      },
      parts_per_sec_p50: Math.round(
        percentile(
          list.map((s) => s.partsPerSec),
          50,
        ),
      ),
      parts_per_response: percentile(
        list.map((s) => s.parts),
        50,
      ),
    });
    const added = percentile(
      roundRatios.map((r) => r.first_byte_added_ms),
      50,
    );
    const ratio = percentile(
      roundRatios.map((r) => r.parts_per_sec_ratio),
      50,
    );
    return {
      benchmark: "stream",
      ours: summary(results.ours),
      bare: summary(results.bare),
      median_of_rounds: { first_byte_added_ms: added, parts_per_sec_ratio: ratio },
      targets: { first_byte_added_ms_max: 5, parts_per_sec_ratio_min: 0.9, met: added <= 5 && ratio >= 0.9 },
      rounds: roundRatios,
      requests_per_round: requests,
      text_chars: chars,
      model_chunks: chunks,
      server: "ours: the production node:http front (server.ts); bare: node:http around the fetch handler",
      database: app.database.kind,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    for (const server of servers) await server.close();
    await app.close();
    await model.close();
  }
}
