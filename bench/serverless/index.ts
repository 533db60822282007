/**
 * serverless: how soon queued work is done when no worker loop runs (WORKERS=after-response, a
 * drain right after each write's answer, as Next.js's `after()` runs it on Vercel) against the
 * in-process workers (WORKERS=in-process, woken by LISTEN/NOTIFY), on PostgreSQL.
 *
 *   npm run bench -- serverless [--samples 100] [--rounds 2]
 *
 * Ingest → queryable: one span through `POST /api/tracing/spans/ingest` (the router's web door,
 * in-process, no socket), timed from the answer to the span being in `spans` (a lookup every
 * millisecond on a separate connection). Commit → first delivery: one commit at a time, timed
 * from the answer to the HTTPS receiver reading the delivery. The two modes alternate in
 * `--rounds` rounds, each on its own app context over one fresh database (created for the run,
 * dropped afterwards). Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createAccount } from "@/server/auth";
import { afterResponseSettled, appContextOf, BACKGROUND_WORKERS, createApiDoors, PROJECT_SETUPS } from "@/server/boot";
import type { AppContext } from "@/server/core/app-context";
import { loadConfig, type Config } from "@/server/core/config";
import { migrateDatabase, openDatabase, type DatabaseHandle } from "@/server/db";
import { parseAllowlist } from "@/server/egress";
import { SecretBox, verifySecretKey } from "@/server/encryption";
import { createSubscription } from "@/server/webhooks";
import { startWebhookReceiver, type WebhookReceiver } from "../../tests/helpers/webhook-receiver";
import { loadAverage, log, machine } from "../lib/benchmark";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const WARMUP = 10;

type Mode = "in-process" | "after-response";

function flag(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2));
  return { samples: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: at(100) };
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const samples = flag(argv, "samples", 100);
  const rounds = flag(argv, "rounds", 2);
  const loadBefore = loadAverage();
  const baseUrl = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const name = `bench_serverless_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 20 });
  const probe = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const receiver = await startWebhookReceiver();
  try {
    await migrateDatabase(handle);
    const secrets = new SecretBox(randomBytes(32));
    await verifySecretKey(handle.db, secrets);
    const allowlist = parseAllowlist("localhost");
    if ("error" in allowlist) throw new Error(allowlist.error);
    const config: Config = {
      ...loadConfig({}),
      egressAllowlist: allowlist.entries,
      egressCa: [receiver.certificate.cert],
    };
    const account = await createAccount(handle.db, PROJECT_SETUPS, {
      email: "bench@bench.local",
      projectName: "bench",
    });
    const scope = { projectId: account.project.id, userId: account.user.id };
    const base = contextOf(handle, config, secrets);
    await createSubscription(base, scope, {
      name: "bench",
      data: {
        url: receiver.url(),
        auth_mode: "signature",
        event_types: ["applications.revisions.committed"],
      },
    });

    const results: Record<Mode, { ingest: number[]; delivery: number[] }> = {
      "in-process": { ingest: [], delivery: [] },
      "after-response": { ingest: [], delivery: [] },
    };
    for (let round = 0; round < rounds; round++) {
      const order: Mode[] = round % 2 ? ["after-response", "in-process"] : ["in-process", "after-response"];
      for (const mode of order) {
        log(`round ${round + 1}: ${mode}, ${samples} spans and ${samples} commits`);
        const measured = await measure(mode, contextOf(handle, { ...config, workers: mode }, secrets));
        results[mode].ingest.push(...measured.ingest);
        results[mode].delivery.push(...measured.delivery);
      }
    }

    async function measure(mode: Mode, app: AppContext) {
      // Started as the app process starts them, without its log line on stdout (the JSON's place).
      const workers = mode === "in-process" ? BACKGROUND_WORKERS.map((worker) => worker.start(app)) : [];
      const { web } = createApiDoors(app);
      const call = async (path: string, body: unknown) => {
        const response = await web(
          new Request(`http://localhost${path}`, {
            method: "POST",
            headers: { authorization: `ApiKey ${account.secret}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        );
        if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      try {
        const ingest = await timeIngest(call, probe, samples);
        const delivery = await timeDelivery(call, receiver, samples);
        return { ingest, delivery };
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await afterResponseSettled(app);
      }
    }

    const report = (mode: Mode) => ({
      ingest_to_queryable_ms: summary(results[mode].ingest),
      commit_to_first_delivery_ms: summary(results[mode].delivery),
    });
    return {
      benchmark: "serverless",
      database: "postgres",
      machine: machine(),
      load_average: { before: loadBefore, after: loadAverage() },
      rounds,
      "in-process": report("in-process"),
      "after-response": report("after-response"),
      cron_only: "WORKERS=off: work waits for the next cron call, once a minute on Vercel (30 s on average)",
    };
  } finally {
    await receiver.close();
    await probe.end();
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function contextOf(handle: DatabaseHandle, config: Config, secrets: SecretBox): AppContext {
  return appContextOf(handle, config, secrets);
}

type Call = (path: string, body: unknown) => Promise<any>;

async function timeIngest(call: Call, probe: postgres.Sql, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples + WARMUP; i++) {
    const trace = randomBytes(16).toString("hex");
    const span = { trace_id: trace, span_id: randomBytes(8).toString("hex"), span_name: "bench" };
    await call("/api/tracing/spans/ingest", { spans: [{ ...span, start_time: new Date().toISOString() }] });
    const answered = performance.now();
    const traceUuid = trace.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    for (let look = 0; ; look++) {
      const [found] = await probe`select 1 as found from spans where trace_id = ${traceUuid} limit 1`;
      if (found) break;
      if (look > 30_000) throw new Error("a span never became queryable");
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (i >= WARMUP) times.push(performance.now() - answered);
  }
  return times;
}

async function timeDelivery(call: Call, receiver: WebhookReceiver, samples: number): Promise<number[]> {
  const created = await call("/api/applications/", {
    application: { name: `bench-${randomBytes(4).toString("hex")}` },
  });
  const variant = await call("/api/applications/variants/", {
    application_variant: { application_id: created.application.id, slug: "default" },
  });
  const variantId = variant.application_variant.id as string;
  const arrivals: number[] = [];
  receiver.reply = () => (arrivals.push(performance.now()), { status: 200 });
  // Deliveries of the creations above (if any) arrive before timing starts.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const times: number[] = [];
  for (let i = 0; i < samples + WARMUP; i++) {
    const before = arrivals.length;
    await call("/api/applications/revisions/commit", {
      application_revision_commit: { application_variant_id: variantId, data: { parameters: { n: i } } },
    });
    const answered = performance.now();
    await receiver.when(() => arrivals.length > before, 30_000);
    if (i >= WARMUP) times.push(arrivals[before] - answered);
  }
  return times;
}
