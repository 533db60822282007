/**
 * stale-plans (issue 29): do retrieves stay fast as a database grows under a warm pool?
 *
 * Starts from an empty database, warms the pool with retrieves of every reference kind (each
 * pooled connection prepares and executes the hot statements while the tables are nearly empty),
 * writes 10,000 commits and 100,000 read events, then measures every retrieve kind again on that
 * same pool without a manual ANALYZE ("grown"). Then ANALYZE, a new app on new connections, and
 * the same measurement ("analyzed"). The figure is grown / analyzed per kind (target >= 0.9).
 *
 * The app runs in this process (its route table through the web door, its own database client
 * and background workers, as `npm start` runs them): the effect lives in the database's plans,
 * not in Next.js, and a run takes a minute or two instead of a build.
 *
 *   npm run bench -- stale-plans [--duration 1] [--rounds 3] [--connections 10] [--commits 10000] [--reads 100000] [--pglite] [--no-statistics]
 *
 * Each figure is the median of `--rounds` runs; beside throughput it reports the database's CPU
 * time per request, which a stale plan inflates and other tenants of the machine barely move.
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test (a fresh
 * database, dropped afterwards); `--pglite` runs it on embedded PGlite in a temporary directory.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createApiDoors } from "@/server/boot";
import { createAccount } from "@/server/auth";
import { loadConfig } from "@/server/core/config";
import { migrateDatabase, openDatabase, rawQuery, type DatabaseHandle } from "@/server/db";
import { drainEvents } from "@/server/events/emit";
import type { AppContext } from "@/server/core/app-context";
import { SecretBox, verifySecretKey } from "@/server/encryption";
import { appContextOf, BACKGROUND_WORKERS, PROJECT_SETUPS } from "@/server/boot";
import { emitRevisionRead } from "@/server/versioning/revision-events";
import { domainKeys } from "@/server/versioning/domains";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { processCpuMs } from "../lib/process-cpu";

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

interface App {
  context: AppContext;
  call(path: string, body: unknown): Promise<Record<string, any>>;
  stop(): Promise<void>;
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const durationS = Number(flags.duration ?? 1);
  const connections = Number(flags.connections ?? 10);
  const commitCount = Number(flags.commits ?? 10_000);
  const readCount = Number(flags.reads ?? 100_000);
  const rounds = Number(flags.rounds ?? 3);
  const onPglite = flags.pglite !== undefined;
  // The app as it ran before issue 29, for comparison: no statistics worker.
  const withStatistics = flags["no-statistics"] === undefined;
  const loadBefore = loadAverage();
  const database = onPglite ? pgliteDatabase() : await scratchPostgres(process.env.DATABASE_URL || LOCAL_POSTGRES);
  const secretKey = randomBytes(32);
  try {
    let app = await startApp(database.open, secretKey, true, withStatistics);
    const account = await createAccount(app.context.db, PROJECT_SETUPS, {
      email: "bench@stale-plans.local",
      projectName: "Bench",
    });
    const key = account.secret;
    const fixture = await seed(app, key);
    const kinds = retrieveKinds(fixture);

    log("warming the pool with retrieves of every kind on the empty database");
    const empty = await measureKinds(app, key, kinds, durationS, connections, rounds);

    log(`writing ${commitCount} commits and ${readCount} read events`);
    const writeStarted = performance.now();
    await writeCommits(app, key, fixture, commitCount, connections);
    await writeReadEvents(app, account, readCount);
    const writeS = (performance.now() - writeStarted) / 1000;

    log("measuring on the same pool, without ANALYZE");
    const grown = await measureKinds(app, key, kinds, durationS, connections, rounds);

    log("ANALYZE, then a new app on new connections");
    await app.stop();
    app = await startApp(database.open, secretKey, false, withStatistics);
    await rawQuery(app.context.db, "analyze");
    const analyzed = await measureKinds(app, key, kinds, durationS, connections, rounds);
    await app.stop();

    const perKind = Object.fromEntries(
      Object.keys(kinds).map((kind) => [
        kind,
        {
          empty_rps: empty[kind].rps,
          grown_rps: grown[kind].rps,
          analyzed_rps: analyzed[kind].rps,
          grown_to_analyzed: round3(grown[kind].rps / analyzed[kind].rps),
          grown_p50_ms: grown[kind].p50,
          analyzed_p50_ms: analyzed[kind].p50,
          empty_db_cpu_ms: empty[kind].dbCpuMs,
          grown_db_cpu_ms: grown[kind].dbCpuMs,
          analyzed_db_cpu_ms: analyzed[kind].dbCpuMs,
          db_cpu_analyzed_to_grown: round3(analyzed[kind].dbCpuMs / grown[kind].dbCpuMs),
        },
      ]),
    );
    const ratios = Object.values(perKind).map((k) => k.grown_to_analyzed);
    const cpuRatios = Object.values(perKind).map((k) => k.db_cpu_analyzed_to_grown);
    return {
      benchmark: "stale-plans",
      database: onPglite ? "pglite" : "postgres",
      statistics_worker: withStatistics,
      commits: commitCount,
      read_events: readCount,
      write_s: round3(writeS),
      retrieve: perKind,
      grown_to_analyzed_min: Math.min(...ratios),
      db_cpu_analyzed_to_grown_min: Math.min(...cpuRatios),
      target_grown_to_analyzed: 0.9,
      connections,
      duration_s: durationS,
      ...machine(),
      load_avg_1m_at_start: loadBefore,
    };
  } finally {
    await database.drop();
  }
}

const round3 = (n: number) => Number(n.toFixed(3));

interface BenchDatabase {
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

function pgliteDatabase(): BenchDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-stale-plans-"));
  return {
    open: () => openDatabase({ pgliteDir: path.join(dir, "pglite") }),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function scratchPostgres(baseUrl: string): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end({ timeout: 5 });
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    open: () => openDatabase({ url: url.toString() }),
    drop: async () => {
      const dropper = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end({ timeout: 5 });
    },
  };
}

async function startApp(
  open: () => Promise<DatabaseHandle>,
  secretKey: Buffer,
  migrate: boolean,
  withStatistics: boolean,
): Promise<App> {
  const handle = await open();
  if (migrate) await migrateDatabase(handle);
  const config = { ...loadConfig({}), secretKey };
  const secrets = new SecretBox(secretKey);
  await verifySecretKey(handle.db, secrets);
  const context = appContextOf(handle, config, secrets);
  const doors = createApiDoors(context);
  const workers = BACKGROUND_WORKERS.filter((w) => withStatistics || w.name !== "statistics").map((w) =>
    w.start(context),
  );
  return {
    context,
    async call(path, body) {
      const response = await doors.web(
        new Request(`http://bench${path}`, {
          method: "POST",
          headers: { authorization: `ApiKey ${currentKey}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      const json = (await response.json()) as Record<string, any>;
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    },
    async stop() {
      await drainEvents(handle.db);
      await Promise.all(workers.map((w) => w.stop()));
      await handle.close();
    },
  };
}

// The one key every call uses (set once the account exists).
let currentKey = "";

interface Fixture {
  slug: string;
  variantId: string;
  revision: { id: string; slug: string };
  apps: { slug: string; variantId: string }[];
}

/** One application with three revisions deployed to staging, and 100 more to commit to. */
async function seed(app: App, key: string): Promise<Fixture> {
  currentKey = key;
  const slug = "bench-app";
  const created = await app.call("/api/applications/", {
    application: {
      slug,
      data: { parameters: { prompt: { messages: [{ role: "system", content: "You are helpful." }] } } },
    },
  });
  const variantId = created.application_variant.id as string;
  let revision = created.application_revision as { id: string; slug: string };
  for (let v = 2; v <= 3; v++) {
    revision = (
      await app.call("/api/applications/revisions/commit", {
        application_revision_commit: { application_variant_id: variantId, data: { parameters: { v } } },
      })
    ).application_revision;
  }
  await app.call("/api/applications/revisions/deploy", {
    application_ref: { slug },
    environment_ref: { slug: "staging" },
  });
  const apps: Fixture["apps"] = [];
  for (let i = 0; i < 100; i++) {
    // An artifact created without data has no variant: make it, as a client does.
    const other = await app.call("/api/applications/", { application: { slug: `app-${i}` } });
    const variant = await app.call("/api/applications/variants/", {
      application_variant: { application_id: other.application.id, slug: "default" },
    });
    apps.push({ slug: `app-${i}`, variantId: variant.application_variant.id });
  }
  return { slug, variantId, revision, apps };
}

function retrieveKinds(f: Fixture): Record<string, unknown> {
  return {
    revision_id: { application_revision_ref: { id: f.revision.id } },
    revision_slug: { application_revision_ref: { slug: f.revision.slug } },
    variant_and_version: { application_variant_ref: { id: f.variantId }, application_revision_ref: { version: "2" } },
    variant_latest: { application_variant_ref: { id: f.variantId } },
    artifact_latest: { application_ref: { slug: f.slug } },
    environment_and_key: { environment_ref: { slug: "staging" }, key: `${f.slug}.revision` },
  };
}

/** Commits spread over 100 applications, every 50th followed by a deploy to production. */
async function writeCommits(app: App, key: string, f: Fixture, count: number, connections: number): Promise<void> {
  currentKey = key;
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < count; i = next++) {
        const target = f.apps[i % f.apps.length];
        await app.call("/api/applications/revisions/commit", {
          application_revision_commit: {
            application_variant_id: target.variantId,
            message: `c${i}`,
            data: { parameters: { prompt: `revision ${i}`, n: i } },
          },
        });
        if (i % 50 === 49)
          await app.call("/api/applications/revisions/deploy", {
            application_ref: { slug: target.slug },
            environment_ref: { slug: "production" },
          });
      }
    }),
  );
}

/** Read events as retrieves write them (the batched outbox insert), 1,000 at a time. */
async function writeReadEvents(
  app: App,
  account: { project: { id: string }; user: { id: string } },
  count: number,
): Promise<void> {
  const keys = domainKeys("applications");
  const revision = {
    id: account.project.id,
    slug: "r",
    version: 1,
    artifactId: account.project.id,
    artifactSlug: "a",
    variantId: account.project.id,
    variantSlug: "default",
  };
  for (let i = 0; i < count; i++) {
    void emitRevisionRead(
      app.context.db,
      { projectId: account.project.id, userId: account.user.id },
      keys,
      "retrieved",
      revision as never,
    );
    if (i % 1000 === 999) await drainEvents(app.context.db);
  }
  await drainEvents(app.context.db);
}

/**
 * Per retrieve kind, the median over `rounds` runs of requests per second and p50, and the
 * database's CPU time per request: throughput on this shared machine moves with whatever else
 * runs, while what a stale plan costs shows in the database's own CPU.
 */
async function measureKinds(
  app: App,
  key: string,
  kinds: Record<string, unknown>,
  durationS: number,
  connections: number,
  rounds: number,
) {
  currentKey = key;
  const runs: Record<string, { rps: number; p50: number; dbCpuMs: number }[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [kind, body] of Object.entries(kinds)) {
      // A short warm-up: every pooled connection runs the statement more than five times.
      await loadFor(app, body, 0.3, connections);
      const cpuBefore = await databaseCpuMs(app);
      const latencies = await loadFor(app, body, durationS, connections);
      const dbCpuMs = (await databaseCpuMs(app)) - cpuBefore;
      latencies.sort((a, b) => a - b);
      (runs[kind] ??= []).push({
        rps: latencies.length / durationS,
        p50: latencies[Math.floor(latencies.length / 2)],
        dbCpuMs: dbCpuMs / latencies.length,
      });
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const out: Record<string, { rps: number; p50: number; dbCpuMs: number }> = {};
  for (const [kind, r] of Object.entries(runs)) {
    out[kind] = {
      rps: round3(median(r.map((x) => x.rps))),
      p50: round3(median(r.map((x) => x.p50))),
      dbCpuMs: round3(median(r.map((x) => x.dbCpuMs))),
    };
    log(`${kind}: ${out[kind].rps} req/s, p50 ${out[kind].p50} ms, database CPU ${out[kind].dbCpuMs} ms/request`);
  }
  return out;
}

/** CPU time of the database: this database's backends on PostgreSQL; this process on PGlite (it runs in it). */
async function databaseCpuMs(app: App): Promise<number> {
  if (app.context.dbKind === "pglite") {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  const backends = await rawQuery<{ pid: number }>(
    app.context.db,
    "select pid from pg_stat_activity where datname = current_database()",
  );
  let total = 0;
  for (const { pid } of backends) {
    try {
      total += processCpuMs(pid);
    } catch {
      // A backend that ended meanwhile.
    }
  }
  return total;
}

async function loadFor(app: App, body: unknown, seconds: number, connections: number): Promise<number[]> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await app.call("/api/applications/revisions/retrieve", body);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}
