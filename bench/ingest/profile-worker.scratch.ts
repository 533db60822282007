import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createAccount } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase } from "@/server/db";
import { enqueueSpans } from "@/server/tracing/ingest/enqueue";
import { drainIngestQueue } from "@/server/tracing/ingest/worker";
import { parseTracingRequest } from "@/server/tracing/parse-request";

const base = "postgres://postgres@127.0.0.1:5432/test";
const name = `scratch_${randomBytes(4).toString("hex")}`;
const admin = postgres(base, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = base.replace("/test", `/${name}`);
const h = await openDatabase({ url, maxConnections: 4 });
await migrateDatabase(h);
const acct = await createAccount(h.db, { email: "x@y.z", projectName: "p" });
const hex = (n: number) => randomBytes(n).toString("hex");
const N = Number(process.argv[2] ?? 20000);
const t0 = performance.now();
const bodies = [];
for (let i = 0; i < N / 100; i++) {
  const spans = [];
  for (let t = 0; t < 10; t++) {
    const tid = hex(16), root = hex(8);
    spans.push({ trace_id: tid, span_id: root, span_name: "root", start_time: new Date().toISOString(), attributes: { "gen_ai.operation.name": "invoke_agent" } });
    for (let j = 1; j < 10; j++) spans.push({ trace_id: tid, span_id: hex(8), parent_id: root, span_name: "chat", start_time: new Date().toISOString(), attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-5-mini", "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 20, "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "question about the weather in paris today" }]) } });
  }
  bodies.push(spans);
}
const t1 = performance.now();
for (const spans of bodies) await enqueueSpans(h.db, acct.project.id, parseTracingRequest({ spans }).spans, { maxBacklogSpans: 1e9 });
const t2 = performance.now();
const app = { db: h.db, dbKind: "postgres" as const, config: loadConfig() };
const n = await drainIngestQueue(app);
const t3 = performance.now();
console.log(JSON.stringify({ spans: n, gen_ms: Math.round(t1 - t0), enqueue_per_s: Math.round(N / ((t2 - t1) / 1000)), worker_per_s: Math.round(N / ((t3 - t2) / 1000)) }));
await h.close();
await admin.unsafe(`drop database ${name} with (force)`);
await admin.end();
