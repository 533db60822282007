/**
 * doors: the latency the MCP door (`tools/call`) and the A2A door (`message/send`) add to an agent
 * run over invoke. The same deployed and exposed agent (`bench@production`), the same scripted
 * model reply, called through `POST /services/agent/v0/invoke` (batch), the MCP tool call (the
 * official SDK's Streamable HTTP client, connected once) and an A2A JSON-RPC `message/send`
 * (blocking: answered with the completed task), requests alternating one by one, all behind the
 * production front (the node:http door of server.ts).
 *
 *   npm run bench -- doors [--rounds 4] [--requests 30] [--chars 400] [--chunks 20]
 *
 * Target (issue 58): at most 2 ms added at p50, as the OpenAI door. The figure is the median of
 * paired differences (door minus the invoke request next to it).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { serveOverHttp } from "../../tests/helpers/http-server";
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";
import { createTestApp } from "../../tests/helpers/test-app";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round3 = (n: number) => Number(n.toFixed(3));
const summary = (list: number[]) => ({ p50: round3(percentile(list, 50)), p95: round3(percentile(list, 95)) });

type Side = "invoke" | "mcp" | "a2a";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const rounds = Number(flags.rounds ?? 4);
  const requests = Number(flags.requests ?? 30);
  const chars = Number(flags.chars ?? 400);
  const chunks = Number(flags.chunks ?? 20);
  const loadBefore = loadAverage();

  const model = await startScriptedModelServer();
  const reply = "lorem ipsum ".repeat(Math.ceil(chars / 12)).slice(0, chars);
  model.script({ kind: "reply", text: reply, chunks });
  const app = await createTestApp({ providerEnv: { openai: { key: "sk-bench", baseUrl: model.baseUrl } } });
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
  const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
    key,
    body: { workflow_revision_ref: { id: created.body.workflow_revision.id }, environment_ref: { slug: "production" } },
  });
  if (deployed.status !== 200) throw new Error(`deploying failed: ${JSON.stringify(deployed.body)}`);
  const exposed = await app.call("PUT", "/api/exposure", {
    key,
    body: { exposures: [{ kind: "agent", slug: "bench", environment: "production" }] },
  });
  if (exposed.status !== 200) throw new Error(`exposing failed: ${JSON.stringify(exposed.body)}`);
  const server = await serveOverHttp(app, "node");
  const mcp = new Client({ name: "bench", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${server.origin}/api/mcp/${projectId}`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  const expected = reply.trim().split(" ").at(-1)!;

  const timed = async (call: () => Promise<string>): Promise<number> => {
    const started = performance.now();
    const text = await call();
    const elapsed = performance.now() - started;
    if (!text.includes(expected)) throw new Error(`bad answer: ${text.slice(0, 300)}`);
    return elapsed;
  };
  const post = async (url: string, authorization: string, body: unknown) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  };
  const calls: Record<Side, () => Promise<number>> = {
    invoke: () =>
      timed(() =>
        post(`${server.origin}/services/agent/v0/invoke`, `ApiKey ${key}`, {
          references: { workflow: { slug: "bench" }, environment: { slug: "production" } },
          data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
        }),
      ),
    mcp: () =>
      timed(async () => JSON.stringify(await mcp.callTool({ name: "bench@production", arguments: { message: "hi" } }))),
    a2a: () =>
      timed(() =>
        post(`${server.origin}/services/a2a/v0/${projectId}/bench@production`, `Bearer ${key}`, {
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: {
            message: {
              kind: "message",
              messageId: crypto.randomUUID(),
              role: "user",
              parts: [{ kind: "text", text: "hi" }],
            },
          },
        }),
      ),
  };

  try {
    for (let i = 0; i < 5; i++) for (const side of ["invoke", "mcp", "a2a"] as const) await calls[side]();
    const samples: Record<Side, number[]> = { invoke: [], mcp: [], a2a: [] };
    const paired: Record<"mcp" | "a2a", number[]> = { mcp: [], a2a: [] };
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < requests; i++) {
        // The order turns each time, so load drift hits every side alike.
        const sides = (["invoke", "mcp", "a2a"] as const).map((_, k, all) => all[(k + i) % 3]);
        const got = {} as Record<Side, number>;
        for (const side of sides) got[side] = await calls[side]();
        for (const side of sides) samples[side].push(got[side]);
        paired.mcp.push(got.mcp - got.invoke);
        paired.a2a.push(got.a2a - got.invoke);
      }
      log(
        `round ${r + 1}/${rounds}: added p50 mcp ${round3(percentile(paired.mcp, 50))} ms, a2a ${round3(percentile(paired.a2a, 50))} ms`,
      );
    }
    const added = { mcp: summary(paired.mcp), a2a: summary(paired.a2a) };
    return {
      benchmark: "doors",
      latency_ms: { invoke: summary(samples.invoke), mcp: summary(samples.mcp), a2a: summary(samples.a2a) },
      added_ms_paired: added,
      targets: { added_p50_ms_max: 2, met: { mcp: added.mcp.p50 <= 2, a2a: added.a2a.p50 <= 2 } },
      requests: rounds * requests,
      text_chars: chars,
      model_chunks: chunks,
      server: "all through the production node:http front (server.ts), same agent, same scripted model",
      database: app.database.kind,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    await mcp.close();
    await server.close();
    await app.close();
    await model.close();
  }
}
