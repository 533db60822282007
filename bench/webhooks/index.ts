import { PROJECT_SETUPS } from "@/server/boot";
/**
 * webhooks: commit-to-delivery latency (p50/p99) on loopback, and deliveries per second with a
 * fast receiver, on PostgreSQL with the real worker (LISTEN/NOTIFY, SKIP LOCKED claims, leased
 * deliveries) sending signed HTTPS requests through the egress guard to an in-process receiver.
 *
 *   npm run bench -- webhooks [--samples 200] [--events 5000] [--concurrency 50]
 *
 * Latency: one commit at a time through the REST router (in-process, no socket), timed from the
 * commit's response to the receiver reading the delivery. Throughput: `--events` events written
 * to the outbox in one transaction while the worker is stopped, then timed from the worker's
 * start to the last delivery received (fan-out included).
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test; a fresh
 * database is created for the run and dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createApiHandler } from "@/server/boot";
import { createAccount } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import { newId } from "@/server/core/ids";
import { migrateDatabase, openDatabase } from "@/server/db";
import { events } from "@/server/db/schema";
import { parseAllowlist } from "@/server/egress";
import type { AppContext } from "@/server/core/app-context";
import { SecretBox, verifySecretKey } from "@/server/encryption";
import { createSubscription, startWebhookWorker } from "@/server/webhooks";
import { startWebhookReceiver } from "../../tests/helpers/webhook-receiver";
import { loadAverage, log, machine } from "../lib/benchmark";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

function flag(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const samples = flag(argv, "samples", 200);
  const eventCount = flag(argv, "events", 5000);
  const concurrency = flag(argv, "concurrency", 50);
  const loadBefore = loadAverage();

  const baseUrl = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const name = `bench_webhooks_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 20 });
  const receiver = await startWebhookReceiver();
  try {
    await migrateDatabase(handle);
    const allowlist = parseAllowlist("localhost");
    if ("error" in allowlist) throw new Error(allowlist.error);
    const secrets = new SecretBox(randomBytes(32));
    await verifySecretKey(handle.db, secrets);
    const app: AppContext = {
      db: handle.db,
      dbKind: handle.kind,
      secrets,
      config: { ...loadConfig({}), egressAllowlist: allowlist.entries, egressCa: [receiver.certificate.cert] },
      projectSetups: PROJECT_SETUPS,
      now: () => new Date(),
    };
    const account = await createAccount(handle.db, PROJECT_SETUPS, {
      email: "bench@bench.local",
      projectName: "bench",
    });
    const scope = { projectId: account.project.id, userId: account.user.id };
    await createSubscription(app, scope, { name: "bench", data: { url: receiver.url(), auth_mode: "signature" } });
    const api = createApiHandler(app);
    const call = async (path: string, body: unknown) => {
      const response = await api(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers: { authorization: `ApiKey ${account.secret}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const created = await call("/api/applications/", { application: { name: "bench-app" } });
    const variant = await call("/api/applications/variants/", {
      application_variant: { application_id: created.application.id, slug: "default" },
    });
    const variantId = variant.application_variant.id as string;

    log(`latency: ${samples} commits, one at a time`);
    const arrivals = new Map<string, number>();
    receiver.reply = (request) => {
      arrivals.set(JSON.parse(request.rawBody).event.event_id, performance.now());
      return { status: 200 };
    };
    let worker = startWebhookWorker(app, { concurrency });
    const latencies: number[] = [];
    const body = (i: number) => ({
      application_revision_commit: { application_variant_id: variantId, data: { parameters: { n: i } } },
    });
    for (let i = 0; i < samples + 10; i++) {
      const before = receiver.requests.length;
      await call("/api/applications/revisions/commit", body(i));
      const committedAt = performance.now();
      await receiver.when(() => receiver.requests.length > before, 10_000);
      const arrived = [...arrivals.values()].at(-1)!;
      // The first commits warm up connections and statement caches.
      if (i >= 10) latencies.push(arrived - committedAt);
    }
    await worker.stop();
    latencies.sort((a, b) => a - b);

    log(`throughput: ${eventCount} outbox events`);
    receiver.reply = () => ({ status: 200 });
    const now = new Date();
    const rows = Array.from({ length: eventCount }, (_, i) => ({
      id: newId(),
      projectId: scope.projectId,
      eventType: "applications.revisions.committed",
      timestamp: now,
      createdAt: now,
      attributes: { n: i },
    }));
    await handle.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 1000) await tx.insert(events).values(rows.slice(i, i + 1000));
    });
    const target = receiver.requests.length + eventCount;
    const started = performance.now();
    worker = startWebhookWorker(app, { concurrency });
    await receiver.when(
      () => receiver.succeeded.length >= target - samples - 10 + 0 && receiver.requests.length >= target,
      300_000,
    );
    const elapsedS = (performance.now() - started) / 1000;
    await worker.stop();

    return {
      benchmark: "webhooks",
      database: "postgres",
      machine: machine(),
      load_average: { before: loadBefore, after: loadAverage() },
      latency_ms: {
        samples: latencies.length,
        p50: Number(percentile(latencies, 50).toFixed(2)),
        p90: Number(percentile(latencies, 90).toFixed(2)),
        p99: Number(percentile(latencies, 99).toFixed(2)),
        max: Number(latencies.at(-1)!.toFixed(2)),
      },
      throughput: {
        events: eventCount,
        concurrency,
        seconds: Number(elapsedS.toFixed(2)),
        deliveries_per_second: Math.round(eventCount / elapsedS),
      },
      targets: { p50_ms: 50, deliveries_per_second: 500 },
    };
  } finally {
    await receiver.close();
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
